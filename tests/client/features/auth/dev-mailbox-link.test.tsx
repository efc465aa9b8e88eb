import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEV_MAILBOX_META } from '@shared/constants.js';
import { DevMailboxLink } from '@/features/auth/components/DevMailboxLink.js';
import { server } from '../../support/server.js';

// The answer is read once per page load, so this file covers one page: one whose server keeps a
// local mailbox (development without SMTP_URL, `npm start` on a fresh clone) and says so in the
// page. A server without one (the browser suite's, with SMTP) is e2e/auth-texts.spec.ts's case.
describe('the link to the local mailbox', () => {
  it('shows when the page says the server keeps a mailbox, without asking the server', async () => {
    const asked: string[] = [];
    server.use(
      http.all('/api/*', ({ request }) => {
        asked.push(`${request.method} ${new URL(request.url).pathname}`);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const meta = document.createElement('meta');
    meta.name = DEV_MAILBOX_META;
    document.head.append(meta);
    render(
      <MemoryRouter>
        <DevMailboxLink />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Open the local mailbox (development)' });
    expect(link).toHaveAttribute('href', '/dev/mailbox');
    expect(asked).toEqual([]);
    meta.remove();
  });
});

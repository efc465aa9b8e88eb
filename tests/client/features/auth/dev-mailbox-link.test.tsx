import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DevMailboxLink } from '@/features/auth/components/DevMailboxLink.js';
import { server } from '../../support/server.js';

// The answer is asked for once per page load, so this file covers one server: one that keeps a
// local mailbox (development without SMTP_URL, `npm start` on a fresh clone). A server without
// one (the browser suite's, with SMTP) is e2e/auth-texts.spec.ts's case: no link.
describe('the link to the local mailbox', () => {
  it('shows on this machine when the server answers for its mailbox, whatever the build', async () => {
    const asked: string[] = [];
    server.use(
      http.head('/api/dev/mails', ({ request }) => {
        asked.push(`${request.method} ${new URL(request.url).pathname}`);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    render(
      <MemoryRouter>
        <DevMailboxLink />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Open the local mailbox (development)' });
    expect(link).toHaveAttribute('href', '/dev/mailbox');
    expect(asked).toEqual(['HEAD /api/dev/mails']);
  });
});

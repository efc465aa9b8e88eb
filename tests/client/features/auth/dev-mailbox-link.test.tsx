import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevMailboxLink } from '@/features/auth/components/DevMailboxLink.js';

// The answer is asked for once per page load, so this file covers one server: one that keeps a
// local mailbox (development without SMTP_URL, `npm start` on a fresh clone). A server without
// one (the browser suite's, with SMTP) is e2e/auth-texts.spec.ts's case: no link.
describe('the link to the local mailbox', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows on this machine when the server answers for its mailbox, whatever the build', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    render(
      <MemoryRouter>
        <DevMailboxLink />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Open the local mailbox (development)' });
    expect(link).toHaveAttribute('href', '/dev/mailbox');
    expect(fetchMock).toHaveBeenCalledExactlyOnceWith('/api/dev/mails', { method: 'HEAD' });
  });
});

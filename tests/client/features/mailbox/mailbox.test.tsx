import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Mailbox } from '@/features/mailbox/components/Mailbox.js';
import { LoginForm } from '@/features/auth/components/login/LoginForm.js';
import { renderRoute } from '../../support/render.js';
import { server } from '../../support/server.js';

const mail = (text: string) => ({
  id: 'm1',
  to: 'ada@example.com',
  from: 'Stockroom <no-reply@localhost>',
  subject: 'Confirm your account',
  text,
  sentAt: '2026-01-02T03:04:05.000Z',
});

describe('Mailbox', () => {
  it('turns the links of a mail into anchors, and nothing else', async () => {
    server.use(
      http.get('/api/dev/mails', () =>
        HttpResponse.json({
          mails: [
            mail(
              'Your code: 123456\n\nOr open http://localhost:5173/auth/confirm-account?email=ada%40example.com.\n' +
                '<a href="javascript:alert(1)">click</a> javascript:alert(2)',
            ),
          ],
        }),
      ),
    );
    renderRoute(<Mailbox />, { path: '/dev/mailbox' });
    const item = (await screen.findByRole('heading', { name: 'Confirm your account' })).closest(
      'li',
    )!;
    const links = within(item).getAllByRole('link');
    expect(links).toHaveLength(1);
    // The sentence's full stop is not part of the address.
    expect(links[0]).toHaveAttribute(
      'href',
      'http://localhost:5173/auth/confirm-account?email=ada%40example.com',
    );
    // Mail HTML stays text.
    expect(item).toHaveTextContent('<a href="javascript:alert(1)">click</a>');
  });
});

describe('the local mailbox link', () => {
  it('shows on the login screen when the server keeps a local mailbox', async () => {
    server.use(http.head('/api/dev/mails', () => new HttpResponse(null, { status: 200 })));
    renderRoute(<LoginForm />, { path: '/auth/login' });
    expect(await screen.findByRole('link', { name: /local mailbox/i })).toHaveAttribute(
      'href',
      '/dev/mailbox',
    );
  });
});

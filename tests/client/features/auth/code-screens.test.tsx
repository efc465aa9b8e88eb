import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfirmAccount } from '@/features/auth/components/ConfirmAccount.js';
import { ResetPassword } from '@/features/auth/components/ResetPassword.js';
import { expectConfirmFollowsPassword } from '../../support/password-pair.js';
import { apiError, deferred, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';

const boxValues = () =>
  Array.from(
    { length: 6 },
    (_, index) => (screen.getByLabelText(`Digit ${index + 1} of 6`) as HTMLInputElement).value,
  );

beforeEach(() => {
  sessionStorage.clear();
});

describe('ConfirmAccount', () => {
  const setup = (url = '/auth/confirm-account?email=ada%40example.com') =>
    renderRoute(<ConfirmAccount />, { path: '/auth/confirm-account', url });

  it('sends the code with the e-mail of the link once six digits are in, then goes to login', async () => {
    const pending = deferred();
    server.use(http.post('/api/auth/confirm-account', () => pending.promise));
    const { user } = setup();
    expect(screen.getByText('Enter the 6-digit code sent to your email')).toBeInTheDocument();
    // Held back for a minute (resend-countdown.test.tsx).
    expect(screen.getByRole('link', { name: /^Resend code in \d+ seconds$/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.keyboard('123456');

    expect(await screen.findByText('Confirming...')).toBeInTheDocument();
    expect(screen.getByLabelText('Digit 1 of 6')).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['POST', '/auth/confirm-account', { token: '123456', email: 'ada@example.com' }],
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'Account confirmed. You can log in now.' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
    expect(
      await screen.findByText('Account confirmed. You can log in now.', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('sends the bare code without an e-mail in the link', async () => {
    server.use(http.post('/api/auth/confirm-account', () => HttpResponse.json({ message: 'ok' })));
    const { user } = setup('/auth/confirm-account');
    await user.paste('654321');
    await waitFor(async () =>
      expect(await sent()).toEqual([['POST', '/auth/confirm-account', { token: '654321' }]]),
    );
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
  });

  it('clears the boxes on a rejected code and shows why', async () => {
    server.use(
      http.post('/api/auth/confirm-account', () =>
        apiError(400, { message: 'The code is not valid or has expired' }),
      ),
    );
    const { user } = setup();
    await user.keyboard('111111');
    // The toast, and the same message beside the boxes (it stays after the toast closes).
    expect(
      await screen.findAllByText('The code is not valid or has expired', {}, { timeout: 3000 }),
    ).toHaveLength(2);
    await waitFor(() => expect(boxValues()).toEqual(['', '', '', '', '', '']));
    expect(screen.getByLabelText('Digit 1 of 6')).toHaveFocus();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });
});

describe('ResetPassword', () => {
  const codeAccepted = http.post('/api/auth/validate-password-token', () =>
    HttpResponse.json({ message: 'Code accepted. Choose a new password.' }),
  );
  const setup = (url = '/auth/reset-password?email=ada%40example.com') =>
    renderRoute(<ResetPassword />, { path: '/auth/reset-password', url });

  it('checks the code first, then shows the new-password form with the token in the URL', async () => {
    server.use(codeAccepted);
    const { user } = setup();
    expect(screen.getByText('Enter the 6-digit code sent to your email')).toBeInTheDocument();
    await user.keyboard('246810');

    expect(await screen.findByLabelText('New Password')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm New password')).toBeInTheDocument();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['POST', '/auth/validate-password-token', { token: '246810', email: 'ada@example.com' }],
      ]),
    );
  });

  it('returns to /auth/forgot-password when the code is rejected', async () => {
    server.use(
      http.post('/api/auth/validate-password-token', () =>
        apiError(400, { message: 'The code is not valid or has expired' }),
      ),
    );
    const { user } = setup();
    await user.keyboard('135790');
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/forgot-password');
    expect(
      await screen.findByText('The code is not valid or has expired', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('re-checks the confirmation when the new password changes after a submit', async () => {
    server.use(codeAccepted);
    const { user } = setup('/auth/reset-password?email=ada%40example.com&token=246810');
    const button = await screen.findByRole('button', { name: 'Reset password' });
    await expectConfirmFollowsPassword({
      user,
      password: 'New Password',
      confirm: 'Confirm New password',
      submit: () => user.click(button),
    });
  });

  it('validates the new password and resets it with the token and e-mail', async () => {
    const pending = deferred();
    // The code in the URL is checked first; then the reset waits.
    server.use(
      codeAccepted,
      http.post('/api/auth/reset-password/246810', () => pending.promise),
    );
    const { user } = setup('/auth/reset-password?email=ada%40example.com&token=246810');
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    expect(await screen.findAllByText('Password is required')).toHaveLength(2);

    await user.type(screen.getByLabelText('New Password'), 'newpass123');
    await user.type(screen.getByLabelText('Confirm New password'), 'newpass124');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm New password'));
    await user.type(screen.getByLabelText('Confirm New password'), 'newpass123');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(await screen.findByRole('button', { name: 'Resetting...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['POST', '/auth/validate-password-token', { token: '246810', email: 'ada@example.com' }],
        [
          'POST',
          '/auth/reset-password/246810',
          { password: 'newpass123', confirmPassword: 'newpass123', email: 'ada@example.com' },
        ],
      ]),
    );
    pending.resolve(
      HttpResponse.json({ message: 'Your password has been reset. You can log in now.' }),
    );
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
  });
});

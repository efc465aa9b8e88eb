import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { A } from '@shared/account-messages.js';
import { LoginForm } from '@/features/auth/components/login/LoginForm.js';
import { apiError, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';

const CHALLENGE = 'c'.repeat(43);
const secondStepNeeded = (methods: string[]) =>
  HttpResponse.json({
    message: A.secondStepNeeded,
    mfa: { challengeId: CHALLENGE, methods },
  });

async function logIn() {
  const rendered = renderRoute(<LoginForm />, { path: '/auth/login' });
  await rendered.user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await rendered.user.type(screen.getByLabelText('Password'), 'secret123');
  await rendered.user.click(screen.getByRole('button', { name: 'Log in' }));
  return rendered;
}

// The first test also loads the second step's chunk, which a busy machine takes seconds to transform.
describe('the second step of a login', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the authenticator code, sends it with the sign-in, then stores the token', async () => {
    server.use(
      http.post('/api/auth/login', () => secondStepNeeded(['totp', 'recovery'])),
      http.post('/api/auth/login/mfa', () =>
        HttpResponse.json({ message: 'Logged in', token: 'token-2fa' }),
      ),
    );
    const { user } = await logIn();
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    expect(localStorage.getItem('AccessToken')).toBeNull();
    // No passkey among the methods: no passkey button.
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('123456');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('AccessToken')).toBe('token-2fa');
    expect((await sent()).at(-1)).toEqual([
      'POST',
      '/auth/login/mfa',
      { challengeId: CHALLENGE, code: '123456' },
    ]);
  });

  it('takes a recovery code instead, and shows a wrong one beside the form', async () => {
    let tries = 0;
    server.use(
      http.post('/api/auth/login', () => secondStepNeeded(['totp', 'recovery', 'passkey'])),
      http.post('/api/auth/login/mfa', () =>
        (tries += 1) === 1
          ? apiError(400, { message: A.recoveryCodeWrong })
          : HttpResponse.json({ message: 'Logged in', token: 'token-recovery' }),
      ),
    );
    // A browser with passkeys (jsdom has none).
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const { user } = await logIn();
    expect(await screen.findByRole('button', { name: 'Use a passkey' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(A.recoveryCodeWrong);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(localStorage.getItem('AccessToken')).toBe('token-recovery'));
  });

  it('goes back to the password when the sign-in has expired', async () => {
    server.use(
      http.post('/api/auth/login', () => secondStepNeeded(['totp', 'recovery'])),
      http.post('/api/auth/login/mfa', () => apiError(400, { message: A.signInExpired })),
    );
    const { user } = await logIn();
    await screen.findByRole('heading', { name: 'Two-factor sign-in' });
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('123456');
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(A.signInExpired);
  });
});

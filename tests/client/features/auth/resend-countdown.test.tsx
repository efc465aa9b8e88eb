import { http, HttpResponse } from 'msw';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmAccount } from '@/features/auth/components/ConfirmAccount.js';
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm.js';
import { LoginForm } from '@/features/auth/components/login/LoginForm.js';
import { NewCodeForm } from '@/features/auth/components/NewCodeForm.js';
import { ResetPassword } from '@/features/auth/components/ResetPassword.js';
import { SignupForm } from '@/features/auth/components/SignupForm.js';
import { apiError, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';
import { elapse, withFakeClock } from './fake-clock.js';

/*
 * The server mails an address at most once a minute per purpose and answers the same whether or not
 * a mail went, so the screens hold 'Resend code' back for 60 s after this
 * browser tab last asked for a code, or after arriving when it asked for none.
 */

/** The auth screens as the app routes them, so that a test can go from one to the next. */
const authScreens = (
  <Routes>
    <Route path="login" element={<LoginForm />} />
    <Route path="signup" element={<SignupForm />} />
    <Route path="confirm-account" element={<ConfirmAccount />} />
    <Route path="new-code" element={<NewCodeForm />} />
    <Route path="forgot-password" element={<ForgotPasswordForm />} />
    <Route path="reset-password" element={<ResetPassword />} />
  </Routes>
);

/** Opens an auth screen in this tab, as a page load (or reload) does. */
const open = (url: string) =>
  renderRoute(authScreens, {
    path: '/auth/*',
    url,
    userOptions: { advanceTimers: vi.advanceTimersByTime },
  });

/**
 * The accessible name of a control counting down from `seconds`; the test's own steps take real
 * time too, so one second less is fine.
 */
const countingDown = (label: string, seconds: number) =>
  new RegExp(`^${label} in (${seconds}|${seconds - 1}) seconds?$`);

const ADA = 'ada%40example.com';

withFakeClock();

beforeEach(() => {
  sessionStorage.clear();
  // The login of an unconfirmed account logs its 403 (a warning).
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Confirm account: the Resend code countdown', () => {
  it('counts 60 s from arrival when this tab asked for no code, without asking the server', async () => {
    open(`/auth/confirm-account?email=${ADA}`);
    const waiting = screen.getByRole('link', { name: countingDown('Resend code', 60) });
    expect(waiting).toHaveAttribute('aria-disabled', 'true');
    expect(waiting).not.toHaveAttribute('href');
    expect(waiting).not.toHaveAttribute('tabindex');
    expect(screen.getByText(/^\d+ s$/)).toHaveAttribute('aria-hidden', 'true');
    // The seconds change every second: nothing around them may read each one out.
    expect(waiting.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Resend code' })).not.toBeInTheDocument();

    await elapse(58_000);
    expect(screen.getByRole('link', { name: countingDown('Resend code', 2) })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await elapse(2_000);
    expect(screen.getByRole('link', { name: 'Resend code' })).toHaveAttribute(
      'href',
      '/auth/new-code?email=ada%40example.com',
    );
    expect(screen.getByRole('link', { name: 'Resend code' })).not.toHaveAttribute('aria-disabled');
    expect(await sent()).toEqual([]);
  });

  it('counts without an e-mail in the link too', async () => {
    open('/auth/confirm-account');
    expect(screen.getByRole('link', { name: countingDown('Resend code', 60) })).toBeVisible();
    await elapse(60_000);
    expect(screen.getByRole('link', { name: 'Resend code' })).toHaveAttribute(
      'href',
      '/auth/new-code',
    );
  });

  it('goes on where it was after a reload and on the resend screen', async () => {
    const first = open(`/auth/confirm-account?email=${ADA}`);
    await elapse(20_000);
    first.unmount();

    const reloaded = open(`/auth/confirm-account?email=${ADA}`);
    expect(screen.getByRole('link', { name: countingDown('Resend code', 40) })).toBeVisible();
    reloaded.unmount();

    open(`/auth/new-code?email=${ADA}`);
    const button = screen.getByRole('button', { name: countingDown('Resend code', 40) });
    expect(button).toBeDisabled();
    await elapse(40_000);
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeEnabled();
  });

  it('never waits more than a minute, even when the clock was set back since', async () => {
    const before = open(`/auth/confirm-account?email=${ADA}`);
    before.unmount();
    vi.setSystemTime(Date.now() - 3_600_000);

    open(`/auth/confirm-account?email=${ADA}`);
    expect(screen.getByRole('link', { name: countingDown('Resend code', 60) })).toBeVisible();
    await elapse(60_000);
    expect(screen.getByRole('link', { name: 'Resend code' })).toHaveAttribute('href');
  });

  it('starts from the sign-up of that address', async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        HttpResponse.json({ message: 'Account created. Check your email.' }),
      ),
    );
    const { user, unmount } = open('/auth/signup');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    await elapse(20_000);
    unmount();

    open(`/auth/confirm-account?email=${ADA}`);
    expect(screen.getByRole('link', { name: countingDown('Resend code', 40) })).toBeVisible();
  });

  it('starts again when logging in to the unconfirmed account sent a new code', async () => {
    const earlier = open(`/auth/confirm-account?email=${ADA}`);
    await elapse(50_000);
    earlier.unmount();

    server.use(
      http.post('/api/auth/login', () =>
        apiError(403, { message: 'Your account is not confirmed yet. We sent a new code.' }),
      ),
    );
    const { user } = open('/auth/login');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(
      await screen.findByRole('link', { name: countingDown('Resend code', 60) }),
    ).toBeVisible();
  });
});

describe('Resend confirmation code: the Resend code countdown', () => {
  it('waits 60 s after a resend, on this screen and on the confirm screen', async () => {
    const { user } = open(`/auth/new-code?email=${ADA}`);
    await elapse(60_000);
    server.use(
      http.post('/api/auth/resend-confirmation', () =>
        HttpResponse.json({ message: 'A new code is on its way.' }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Resend code' }));

    const waiting = await screen.findByRole('button', { name: countingDown('Resend code', 60) });
    expect(waiting).toBeDisabled();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    expect(screen.getByRole('button', { name: countingDown('Resend code', 60) })).toBeDisabled();

    await user.click(screen.getByRole('link', { name: 'Enter the code' }));
    expect(
      await screen.findByRole('link', { name: countingDown('Resend code', 60) }),
    ).toHaveAttribute('aria-disabled', 'true');
    await elapse(60_000);
    expect(screen.getByRole('link', { name: 'Resend code' })).toHaveAttribute('href');
  });

  it('holds back only the address it counts for', async () => {
    const { user } = open(`/auth/new-code?email=${ADA}`);
    expect(screen.getByRole('button', { name: countingDown('Resend code', 60) })).toBeDisabled();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeEnabled();
  });

  it('does not count on arrival without an address', () => {
    open('/auth/new-code');
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeEnabled();
  });
});

describe('Forgot and reset password: the new-code countdown', () => {
  it('waits 60 s after a code was sent, on the form and on the code screen', async () => {
    server.use(
      http.post('/api/auth/forgot-password', () =>
        HttpResponse.json({ message: 'A code is on its way.' }),
      ),
    );
    const { user } = open('/auth/forgot-password');
    expect(screen.getByRole('button', { name: 'Send Code' })).toBeEnabled();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));

    expect(
      await screen.findByRole('button', { name: countingDown('Send Code', 60) }),
    ).toBeDisabled();
    await user.click(screen.getByRole('link', { name: 'Enter the code' }));
    expect(
      await screen.findByRole('link', { name: countingDown('Request a new code', 60) }),
    ).toHaveAttribute('aria-disabled', 'true');
    await elapse(60_000);
    expect(screen.getByRole('link', { name: 'Request a new code' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
  });

  it('counts from arrival on the code screen opened from the mail', async () => {
    open(`/auth/reset-password?email=${ADA}`);
    expect(
      screen.getByRole('link', { name: countingDown('Request a new code', 60) }),
    ).toHaveAttribute('aria-disabled', 'true');
    await elapse(60_000);
    expect(screen.getByRole('link', { name: 'Request a new code' })).toBeVisible();
  });

  it('counts apart from the confirmation code of the same address', async () => {
    const confirm = open(`/auth/confirm-account?email=${ADA}`);
    confirm.unmount();
    const { user } = open('/auth/forgot-password');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    expect(screen.getByRole('button', { name: 'Send Code' })).toBeEnabled();
  });
});

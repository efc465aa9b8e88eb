import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm.js';
import { NewCodeForm } from '@/features/auth/components/NewCodeForm.js';
import { apiError, deferred, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';
import { elapse, withFakeClock } from './fake-clock.js';

beforeEach(() => {
  sessionStorage.clear();
});

describe('ForgotPasswordForm', () => {
  const setup = () => renderRoute(<ForgotPasswordForm />, { path: '/auth/forgot-password' });

  it('needs a valid e-mail', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { name: 'Forgot Password?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'nope');
    expect(await screen.findByText('Email is not valid')).toBeInTheDocument();
  });

  it("reads 'Sending...' while busy, then shows the message and clears the form", async () => {
    const pending = deferred();
    server.use(http.post('/api/auth/forgot-password', () => pending.promise));
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(await sent()).toEqual([['POST', '/auth/forgot-password', { email: 'ada@example.com' }]]);

    pending.resolve(HttpResponse.json({ message: 'A code is on its way.' }));
    expect(await screen.findByText('A code is on its way.', {}, { timeout: 3000 })).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByRole('link', { name: 'Enter the code' })).toHaveAttribute(
      'href',
      '/auth/reset-password?email=ada%40example.com',
    );
    expect(screen.getByRole('link', { name: 'Already have an account? Login' })).toHaveAttribute(
      'href',
      '/auth/login',
    );
  });
});

describe('NewCodeForm', () => {
  withFakeClock();
  const setup = (url = '/auth/new-code') =>
    renderRoute(<NewCodeForm />, {
      path: '/auth/new-code',
      url,
      userOptions: { advanceTimers: vi.advanceTimersByTime },
    });

  it('is prefilled from the link and reads Resending... while busy', async () => {
    const pending = deferred();
    server.use(http.post('/api/auth/resend-confirmation', () => pending.promise));
    const { user } = setup('/auth/new-code?email=ada%40example.com');
    expect(screen.getByRole('heading', { name: 'Resend Confirmation Code' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
    // Opened for an address, it waits a minute first (resend-countdown.test.tsx).
    await elapse(60_000);
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByRole('button', { name: 'Resending...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['POST', '/auth/resend-confirmation', { email: 'ada@example.com' }],
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'A new code is on its way.' }));
    expect(await screen.findByRole('link', { name: 'Enter the code' })).toHaveAttribute(
      'href',
      '/auth/confirm-account?email=ada%40example.com',
    );
  });

  it('goes to /auth/login after a failure', async () => {
    server.use(
      http.post('/api/auth/resend-confirmation', () =>
        apiError(429, { message: 'Too many requests.' }),
      ),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
    expect(await screen.findByText('Too many requests.', {}, { timeout: 3000 })).toBeVisible();
  });
});

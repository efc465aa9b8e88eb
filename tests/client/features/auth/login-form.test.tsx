import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '@/features/auth/components/login/LoginForm.js';
import { apiError, deferred, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';

const setup = () => renderRoute(<LoginForm />, { path: '/auth/login' });

describe('LoginForm', () => {
  beforeEach(() => {
    // A refused login is logged: as a warning, not an error of the app.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('shows the login texts', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Create your Free account now' })).toHaveAttribute(
      'href',
      '/auth/signup',
    );
  });

  it('validates on submit, under the right fields, tied to them', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText('Email');
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Email is required');
    expect(await sent()).toEqual([]);
  });

  it('does not validate before the first submit, then re-validates on change', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.queryByText('Email is not valid')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Email is not valid')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await waitFor(() => expect(screen.queryByText('Email is not valid')).not.toBeInTheDocument());
  });

  it("reads 'Logging in...' and is disabled while busy, then stores the token and goes to /", async () => {
    const pending = deferred();
    server.use(http.post('/api/auth/login', () => pending.promise));
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    expect(busy).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['POST', '/auth/login', { email: 'ada@example.com', password: 'secret123' }],
      ]),
    );

    pending.resolve(HttpResponse.json({ message: 'Logged in', token: 'token-1' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('AccessToken')).toBe('token-1');
  });

  it('shows a failure as a toast and logs it', async () => {
    server.use(
      http.post('/api/auth/login', () => apiError(400, { message: 'Incorrect email or password' })),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong1234');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    // In the toast and beside the form (FormAlert): the toast may come a moment after the alert.
    await waitFor(
      () => expect(screen.getAllByText('Incorrect email or password')).toHaveLength(2),
      { timeout: 3000 },
    );
    expect(document.querySelector('.Toastify__toast')).toHaveTextContent(
      'Incorrect email or password',
    );
    expect(console.warn).toHaveBeenCalledWith('Login failed', expect.anything());
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(localStorage.getItem('AccessToken')).toBeNull();
  });

  it("shows a rate limit in the server's words, and counts its wait down on the button", async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json(
          { message: 'Too many requests. Please try again later.' },
          { status: 429, headers: { 'Retry-After': '2' } },
        ),
      ),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(
      () =>
        expect(document.querySelector('.Toastify__toast')).toHaveTextContent(
          'Too many requests. Please try again later.',
        ),
      { timeout: 3000 },
    );
    expect(screen.getByRole('button', { name: /^Try again in [12] seconds?$/ })).toBeDisabled();
    // Then the form can be sent again.
    expect(await screen.findByRole('button', { name: 'Log in' }, { timeout: 4000 })).toBeEnabled();
  }, 10_000);

  it('sends an unconfirmed account to the code entry, with its e-mail', async () => {
    server.use(
      http.post('/api/auth/login', () =>
        apiError(403, { message: 'Your account is not confirmed yet.' }),
      ),
    );
    const { user } = setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(
      '/auth/confirm-account?email=ada%40example.com',
    );
  });
});

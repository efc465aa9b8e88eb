import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SignupForm } from '@/features/auth/components/SignupForm.js';
import { expectConfirmFollowsPassword } from '../../support/password-pair.js';
import { apiError, deferred, sent, server } from '../../support/server.js';
import { renderRoute } from '../../support/render.js';

const setup = () => renderRoute(<SignupForm />, { path: '/auth/signup' });

/** A valid sign-up, typed in and sent. */
async function signUpAsAda() {
  const { user } = setup();
  await user.type(screen.getByLabelText('Name'), 'Ada');
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret123');
  await user.type(screen.getByLabelText('Confirm Password'), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('SignupForm', () => {
  it('shows every required message on an empty submit', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { name: 'Create an Account' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Confirm Password is required')).toBeInTheDocument();
  });

  it('checks the name length, the password rules and the confirmation', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Name'), 'x'.repeat(51));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), '12345678');
    await user.type(screen.getByLabelText('Confirm Password'), '12345679');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Name must be less than 50 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must contain at least one letter')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      'Passwords do not match',
    );

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'abcdefgh');
    expect(
      await screen.findByText('Password must contain at least one number'),
    ).toBeInTheDocument();
    expect(await sent()).toEqual([]);
  });

  it('re-checks the confirmation when the password changes after a submit', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await expectConfirmFollowsPassword({
      user,
      password: 'Password',
      confirm: 'Confirm Password',
      submit: () => user.click(screen.getByRole('button', { name: 'Sign Up' })),
    });
    expect(await sent()).toEqual([]);
  });

  it("reads 'Creating account...' while busy, then shows the message and goes to /auth/login", async () => {
    const pending = deferred();
    server.use(http.post('/api/auth/signup', () => pending.promise));
    await signUpAsAda();

    expect(await screen.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        [
          'POST',
          '/auth/signup',
          {
            name: 'Ada',
            email: 'ada@example.com',
            password: 'secret123',
            confirmPassword: 'secret123',
          },
        ],
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'Account created. Check your email.' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
    expect(
      await screen.findByText('Account created. Check your email.', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('shows the first field error of a rejected sign-up as a toast', async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        apiError(400, {
          message: 'Password must be at least 8 characters',
          errors: [{ path: 'password', message: 'Password must be at least 8 characters' }],
        }),
      ),
    );
    await signUpAsAda();
    expect(
      await screen.findByText('Password must be at least 8 characters', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  });
});

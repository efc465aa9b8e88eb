import { http, HttpResponse } from 'msw';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChangePasswordForm } from '@/features/profile/components/ChangePasswordForm.js';
import { LowStockDigestOption } from '@/features/profile/components/LowStockDigestOption.js';
import { ProfileForm } from '@/features/profile/components/ProfileForm.js';
import { expectConfirmFollowsPassword } from '../../support/password-pair.js';
import { apiError, deferred, sent, server } from '../../support/server.js';
import { renderRoute, testQueryClient } from '../../support/render.js';

const user = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' };

describe('ProfileForm', () => {
  const setup = () => {
    const queryClient = testQueryClient();
    queryClient.setQueryData(['user'], user);
    queryClient.setQueryData(['preferences'], { lowStockDigest: false });
    return renderRoute(<ProfileForm />, { path: '/profile', queryClient });
  };

  it('is prefilled from the current user and validates', async () => {
    const { user: u } = setup();
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    await u.clear(screen.getByLabelText('Name'));
    await u.clear(screen.getByLabelText('Email'));
    await u.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it("reads 'Saving...' while busy, refreshes the cached user and goes to /", async () => {
    const pending = deferred();
    server.use(
      http.get('/api/auth/user', () => HttpResponse.json({ user: { ...user, name: 'Ada King' } })),
      http.patch('/api/auth/profile', () => pending.promise),
    );
    const { user: u, queryClient } = setup();
    await u.clear(screen.getByLabelText('Name'));
    await u.type(screen.getByLabelText('Name'), 'Ada King');
    await u.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        ['PATCH', '/auth/profile', { name: 'Ada King', email: 'ada@example.com' }],
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'Profile updated' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(queryClient.getQueryState(['user'])?.isInvalidated).toBe(true);
    expect(await screen.findByText('Profile updated', {}, { timeout: 3000 })).toBeVisible();
  });

  it('a new e-mail: says a code went to it, takes the code, then goes to /', async () => {
    const sentTo = 'Profile updated. Enter the 6-digit code sent to new@example.com to confirm.';
    let confirmed = 0;
    server.use(
      http.patch('/api/auth/profile', () => HttpResponse.json({ message: sentTo })),
      http.post('/api/auth/profile/confirm-email', async ({ request }) => {
        const { token } = (await request.json()) as { token: string };
        if (token !== '123456')
          return apiError(400, { message: 'The code is not valid or has expired' });
        confirmed += 1;
        return HttpResponse.json({ message: 'Email changed' });
      }),
    );
    const { user: u } = setup();
    await u.clear(screen.getByLabelText('Email'));
    await u.type(screen.getByLabelText('Email'), 'new@example.com');
    await u.click(screen.getByRole('button', { name: 'Update Profile' }));
    const panel = await screen.findByRole('region', { name: 'Confirm your new email' });
    expect(panel).toHaveTextContent('sent to new@example.com');
    expect(panel).toHaveTextContent('your email stays ada@example.com');
    expect(screen.queryByTestId('location')).toBeNull();
    expect(await screen.findByText(sentTo, {}, { timeout: 3000 })).toBeVisible();

    await u.keyboard('654321');
    expect(
      await screen.findByText('The code is not valid or has expired', {}, { timeout: 3000 }),
    ).toBeVisible();
    await waitFor(() =>
      expect(screen.getAllByRole('textbox', { name: /digit/i })[0]).toHaveValue(''),
    );
    screen.getAllByRole('textbox', { name: /digit/i })[0]!.focus();
    await u.keyboard('123456');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(confirmed).toBe(1);
  });

  it('shows a taken e-mail as a toast', async () => {
    server.use(
      http.patch('/api/auth/profile', () =>
        apiError(409, { message: 'That email is already used by another account' }),
      ),
    );
    const { user: u } = setup();
    await u.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(
      await screen.findByText(
        'That email is already used by another account',
        {},
        { timeout: 3000 },
      ),
    ).toBeVisible();
  });
});

describe('ChangePasswordForm', () => {
  const setup = () => renderRoute(<ChangePasswordForm />, { path: '/profile/new-password' });

  it('validates every password field and the confirmation', async () => {
    const { user: u } = setup();
    expect(screen.getByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findAllByText('Password is required')).toHaveLength(3);
    await u.type(screen.getByLabelText('Current Password'), 'old12345');
    await u.type(screen.getByLabelText('New Password'), 'newpassword');
    await u.type(screen.getByLabelText('Confirm New Password'), 'other123');
    expect(await screen.findByText('Password must contain at least one number')).toBeVisible();
    expect(screen.getByLabelText('Confirm New Password')).toHaveAccessibleDescription(
      'Passwords do not match',
    );
  });

  it('re-checks the confirmation when the new password changes after a submit', async () => {
    const { user: u } = setup();
    await u.type(screen.getByLabelText('Current Password'), 'old12345');
    await expectConfirmFollowsPassword({
      user: u,
      password: 'New Password',
      confirm: 'Confirm New Password',
      submit: () => u.click(screen.getByRole('button', { name: 'Change Password' })),
    });
    expect(await sent()).toEqual([]);
  });

  it('keeps the token it has, as the spec says, then goes to /', async () => {
    localStorage.setItem('AccessToken', 'old-token');
    const pending = deferred();
    server.use(http.post('/api/auth/profile/change-password', () => pending.promise));
    const { user: u } = setup();
    await u.type(screen.getByLabelText('Current Password'), 'old12345');
    await u.type(screen.getByLabelText('New Password'), 'new12345');
    await u.type(screen.getByLabelText('Confirm New Password'), 'new12345');
    await u.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    await waitFor(async () =>
      expect(await sent()).toEqual([
        [
          'POST',
          '/auth/profile/change-password',
          { currentPassword: 'old12345', newPassword: 'new12345', confirmNewPassword: 'new12345' },
        ],
      ]),
    );
    pending.resolve(HttpResponse.json({ message: 'Password changed' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem('AccessToken')).toBe('old-token');
  });
});

describe('LowStockDigestOption', () => {
  it('shows the tick at once, keeps it while saving, and drops it when the save fails', async () => {
    const pending = deferred();
    server.use(http.patch('/api/auth/preferences', () => pending.promise));
    const queryClient = testQueryClient();
    queryClient.setQueryData(['preferences'], { lowStockDigest: false });
    renderRoute(<LowStockDigestOption />, { queryClient });
    const box = screen.getByRole('checkbox', { name: 'E-mail me a daily low-stock digest' });
    fireEvent.click(box);
    // In the same turn as the click: no flicker back while the request starts.
    expect(box).toBeChecked();
    await waitFor(async () =>
      expect(await sent()).toEqual([['PATCH', '/auth/preferences', { lowStockDigest: true }]]),
    );
    expect(box).toBeChecked();
    pending.resolve(apiError(500, { message: 'Something broke' }));
    await waitFor(() => expect(box).not.toBeChecked());
  });
});

describe('LowStockDigestOption, read from the preferences', () => {
  it('shows what the server keeps and the saved answer', async () => {
    server.use(
      http.get('/api/auth/preferences', () =>
        HttpResponse.json({ preferences: { lowStockDigest: true } }),
      ),
      http.patch('/api/auth/preferences', () =>
        HttpResponse.json({ message: 'Preferences saved', preferences: { lowStockDigest: false } }),
      ),
    );
    const { user: u } = renderRoute(<LowStockDigestOption />, { queryClient: testQueryClient() });
    const box = screen.getByRole('checkbox', { name: 'E-mail me a daily low-stock digest' });
    await waitFor(() => expect(box).toBeChecked());
    await u.click(box);
    expect(await screen.findByText('Preferences saved', {}, { timeout: 3000 })).toBeVisible();
    expect(box).not.toBeChecked();
  });
});

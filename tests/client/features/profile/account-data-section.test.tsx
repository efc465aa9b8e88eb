import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { A } from '@shared/account-messages.js';
import { AccountDataSection } from '@/features/profile/components/security/AccountDataSection.js';
import { renderRoute, testQueryClient } from '../../support/render.js';
import { apiError, sent, server } from '../../support/server.js';

const fire = vi.hoisted(() => vi.fn());
vi.mock('sweetalert2', () => ({ default: { fire } }));

const show = (totp = false) => {
  server.use(http.get('/api/auth/mfa', () => HttpResponse.json({ totp, recoveryCodesLeft: 10 })));
  return renderRoute(<AccountDataSection />, {
    path: '/profile/security',
    queryClient: testQueryClient(),
  });
};

beforeEach(() => {
  fire.mockResolvedValue({ isConfirmed: false, isDismissed: true });
});

describe('AccountDataSection', () => {
  it('asks for the password before the final warning, and sends nothing', async () => {
    const { user } = show();
    const password = await screen.findByLabelText('Your password');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByText(A.passwordRequired)).toBeVisible();
    expect(password).toHaveAccessibleDescription(A.passwordRequired);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveFocus();
    expect(fire).not.toHaveBeenCalled();
    expect((await sent()).filter(([method]) => method === 'DELETE')).toEqual([]);
  });

  it('with two-factor sign-in on, asks for the code too before the final warning', async () => {
    const { user } = show(true);
    await user.type(await screen.findByLabelText('Your password'), 'first-Password-1');
    const code = await screen.findByLabelText(
      'Code from your authenticator app, or a recovery code',
    );
    await user.type(code, '   ');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByText(A.codeRequired)).toBeVisible();
    expect(code).toHaveAccessibleDescription(A.codeRequired);
    expect(code).toHaveFocus();
    expect(screen.getByLabelText('Your password')).not.toHaveAttribute('aria-invalid');
    expect(fire).not.toHaveBeenCalled();

    // Filled in, the warning comes, and the field's message goes.
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    await waitFor(() =>
      expect(fire).toHaveBeenCalledWith(expect.objectContaining({ title: 'Delete your account?' })),
    );
    expect(screen.queryByText(A.codeRequired)).not.toBeInTheDocument();
  });

  it('deletes nothing when the dialog is cancelled', async () => {
    const { user } = show();
    await user.type(await screen.findByLabelText('Your password'), 'first-Password-1');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    await waitFor(() =>
      expect(fire).toHaveBeenCalledWith(expect.objectContaining({ title: 'Delete your account?' })),
    );
    expect((await sent()).filter(([method]) => method === 'DELETE')).toEqual([]);
  });

  it('sends the password and the code once confirmed, and shows the 409 naming catalogues', async () => {
    fire.mockResolvedValue({ isConfirmed: true });
    const refusal = 'Hand over or delete the shared catalogues you own first: Warehouse';
    server.use(http.delete('/api/auth/user', () => apiError(409, { message: refusal })));
    const { user } = show(true);
    await user.type(await screen.findByLabelText('Your password'), 'first-Password-1');
    await user.type(
      await screen.findByLabelText('Code from your authenticator app, or a recovery code'),
      '123456',
    );
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(await sent()).toContainEqual([
      'DELETE',
      '/auth/user',
      { password: 'first-Password-1', code: '123456' },
    ]);
  });

  it('once deleted, forgets the session and goes to the login screen', async () => {
    fire.mockResolvedValue({ isConfirmed: true });
    server.use(
      http.delete('/api/auth/user', () =>
        HttpResponse.json({ message: 'Your account has been deleted' }),
      ),
    );
    const { user } = show();
    await user.type(await screen.findByLabelText('Your password'), 'first-Password-1');
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/auth/login');
  });
});

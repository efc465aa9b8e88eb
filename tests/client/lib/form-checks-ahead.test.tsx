import { zodResolver } from '@hookform/resolvers/zod';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CreateProduct } from '@/features/products/components/CreateProduct.js';
import { ChangePasswordForm } from '@/features/profile/components/ChangePasswordForm.js';
import { ProfileForm } from '@/features/profile/components/ProfileForm.js';
import { renderRoute, testQueryClient } from '../support/render.js';

// Each form makes its zod resolver once the checks' code is there: the count of forms ready.
vi.mock('@hookform/resolvers/zod', async (importOriginal) => {
  const original = await importOriginal<typeof import('@hookform/resolvers/zod')>();
  return { ...original, zodResolver: vi.fn(original.zodResolver) };
});

/**
 * The signed-in screens' forms fetch their checks as they are shown, not on the first submit: a
 * tap on the submit button then shows the messages at once, without a late jump of the form.
 */
describe("the signed-in forms' checks load as the form shows", () => {
  it.each([
    ['the product form', () => renderRoute(<CreateProduct />, { path: '/new/product' })],
    [
      'the profile form',
      () => {
        const queryClient = testQueryClient();
        queryClient.setQueryData(['user'], { id: 'u1', name: 'Ada', email: 'ada@example.com' });
        return renderRoute(<ProfileForm />, { path: '/profile', queryClient });
      },
    ],
    ['the password form', () => renderRoute(<ChangePasswordForm />, { path: '/profile/password' })],
  ])('%s', async (_name, render) => {
    vi.mocked(zodResolver).mockClear();
    render();
    await screen.findAllByRole('button');
    await vi.waitFor(() => expect(zodResolver).toHaveBeenCalledTimes(1));
  });
});

import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@shared/schemas/auth.js';
import { tokenResponseSchema } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';

/**
 * POST /auth/profile/change-password → {message, token}. The token of the request is revoked: the
 * returned one replaces it (contract section 4).
 */
const changePassword = (body: ChangePasswordInput) =>
  apiRequest(tokenResponseSchema, {
    method: 'POST',
    url: '/auth/profile/change-password',
    data: body,
  });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });

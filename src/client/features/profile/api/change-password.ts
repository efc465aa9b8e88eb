import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@shared/schemas/auth.js';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';

/**
 * POST /auth/profile/change-password → {message}. Every other session of the account ends; this
 * one goes on with the token it has.
 */
const changePassword = (body: ChangePasswordInput) =>
  apiRequest(messageSchema, { method: 'POST', url: '/auth/profile/change-password', data: body });

export const useChangePassword = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof changePassword> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: changePassword });

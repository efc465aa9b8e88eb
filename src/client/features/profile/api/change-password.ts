import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@shared/schemas/auth.js';
import { tokenResponseSchema } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { setToken } from '@/lib/auth/token.js';
import type { MutationConfig } from '@/lib/query-client.js';

/**
 * POST /auth/profile/change-password → {message, token}. The token of the request is revoked: the
 * returned one replaces it.
 */
const changePassword = (body: ChangePasswordInput) =>
  apiRequest(tokenResponseSchema, {
    method: 'POST',
    url: '/auth/profile/change-password',
    data: body,
  });

/** The session goes on with the fresh token; then the screen's own onSuccess. */
export function useChangePassword({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof changePassword> } = {}) {
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: changePassword,
    onSuccess: async (data, variables, ...rest) => {
      setToken(data.token);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { getErrorStatus } from '@/lib/api-error.js';
import { startSession } from '@/lib/auth/session.js';
import { tokenResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query-client.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/** POST /auth/login {email, password} → {message, token}. */
const login = (body: LoginInput) =>
  apiRequest(tokenResponse, { method: 'POST', url: '/auth/login', data: body });

/**
 * Login success starts the session (the token stored, nothing cached kept, lib/auth/session.ts).
 * A 403 is an account not confirmed yet, which the server mailed a new code:
 * the wait before asking for another starts. Then the screen's own onSuccess or onError.
 */
export function useLogin({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof login> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, onError, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: login,
    onSuccess: async (data, variables, ...rest) => {
      startSession(queryClient, data.token);
      await onSuccess?.(data, variables, ...rest);
    },
    onError: async (error, variables, ...rest) => {
      if (getErrorStatus(error) === 403) noteCodeRequest('confirm', variables.email);
      await onError?.(error, variables, ...rest);
    },
  });
}

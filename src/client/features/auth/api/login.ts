import type { LoginInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { getErrorStatus } from '@/lib/api-error.js';
import { startSessionLater } from '@/lib/auth/lazy-session.js';
import { tokenResponse } from '@/lib/lazy-schemas.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/** POST /auth/login {email, password} → {message, token}. */
const login = (body: LoginInput) =>
  apiRequest(tokenResponse, { method: 'POST', url: '/auth/login', data: body });

/**
 * Login success starts the session (the token stored, nothing cached kept, lib/auth/session.ts),
 * then `onSuccess`. A 403 is an account not confirmed yet, which the server mailed a new code:
 * the wait before asking for another starts. Not a TanStack mutation: the login page loads
 * without TanStack Query (the form's own state says it is busy).
 */
export function useLogin({ onSuccess }: { onSuccess?: () => unknown } = {}) {
  return {
    mutateAsync: async (body: LoginInput) => {
      let data: Awaited<ReturnType<typeof login>>;
      try {
        data = await login(body);
      } catch (error) {
        if (getErrorStatus(error) === 403) noteCodeRequest('confirm', body.email);
        throw error;
      }
      await startSessionLater(data.token);
      await onSuccess?.();
      return data;
    },
  };
}

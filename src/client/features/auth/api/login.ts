import type { LoginInput, SecondStepNeeded } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { getErrorStatus } from '@/lib/api-error.js';
import { startSessionLater } from '@/lib/auth/lazy-session.js';
import { loginResponse } from '@/lib/lazy-schemas.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/**
 * POST /auth/login {email, password} → {message, token}, or for an account with two-factor
 * sign-in {message, mfa}: no token until the second step.
 */
const login = (body: LoginInput) =>
  apiRequest(loginResponse, { method: 'POST', url: '/auth/login', data: body });

interface LoginHandlers {
  onSuccess?: () => unknown;
  /** The password was right and the account asks for a second step. */
  onSecondStep?: (secondStep: SecondStepNeeded) => unknown;
}

/**
 * Login success starts the session (the token stored, nothing cached kept, lib/session/session.ts),
 * then `onSuccess`. A 403 is an account not confirmed yet, which the server mailed a new code:
 * the wait before asking for another starts. Not a TanStack mutation: the login page loads
 * without TanStack Query (the form's own state says it is busy).
 */
export function useLogin({ onSuccess, onSecondStep }: LoginHandlers = {}) {
  return {
    mutateAsync: async (body: LoginInput) => {
      let data: Awaited<ReturnType<typeof login>>;
      try {
        data = await login(body);
      } catch (error) {
        if (getErrorStatus(error) === 403) noteCodeRequest('confirm', body.email);
        throw error;
      }
      if ('mfa' in data) {
        await onSecondStep?.(data.mfa);
        return data;
      }
      await startSessionLater(data.token);
      await onSuccess?.();
      return data;
    },
  };
}

import { useMutation } from '@tanstack/react-query';
import type { SignupInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/** POST /auth/signup → {message}: a code is e-mailed to confirm the account. */
const signup = (body: SignupInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/signup', data: body });

/**
 * A code is on its way to confirm the account (or held back by the mail budget): the wait before asking again
 * starts (hooks/use-resend-wait.ts); then the screen's own onSuccess.
 */
export function useSignup({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof signup> } = {}) {
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: signup,
    onSuccess: async (data, variables, ...rest) => {
      noteCodeRequest('confirm', variables.email);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

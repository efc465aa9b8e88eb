import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/** POST /auth/forgot-password {email} → {message}: a reset code is e-mailed. */
const forgotPassword = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/forgot-password', data: body });

/**
 * A reset code is on its way (or held back by the mail budget): the wait before asking again
 * starts (hooks/use-resend-wait.ts); then the screen's own onSuccess.
 */
export function useForgotPassword({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof forgotPassword> } = {}) {
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: forgotPassword,
    onSuccess: async (data, variables, ...rest) => {
      noteCodeRequest('reset', variables.email);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

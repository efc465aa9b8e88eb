import { useMutation } from '@tanstack/react-query';
import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { noteCodeRequest } from '../hooks/use-resend-wait.js';

/** POST /auth/resend-confirmation {email} → {message}. */
const resendConfirmation = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/resend-confirmation', data: body });

/**
 * A new confirmation code is on its way (or held back by the mail budget): the wait before asking again
 * starts (hooks/use-resend-wait.ts); then the screen's own onSuccess.
 */
export function useResendConfirmation({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resendConfirmation> } = {}) {
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: resendConfirmation,
    onSuccess: async (data, variables, ...rest) => {
      noteCodeRequest('confirm', variables.email);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useCodeRequest } from './code-request.js';

/** POST /auth/resend-confirmation {email} → {message}. */
const resendConfirmation = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/resend-confirmation', data: body });

/** A confirmation code asked for again: the wait before asking for another starts. */
export const useResendConfirmation = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resendConfirmation> } = {}) =>
  useCodeRequest(resendConfirmation, 'confirm', mutationConfig);

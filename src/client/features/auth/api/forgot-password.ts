import type { EmailOnlyInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useCodeRequest } from './code-request.js';

/** POST /auth/forgot-password {email} → {message}: a reset code is e-mailed. */
const forgotPassword = (body: EmailOnlyInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/forgot-password', data: body });

/** A reset code asked for: the wait before asking for another starts. */
export const useForgotPassword = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof forgotPassword> } = {}) =>
  useCodeRequest(forgotPassword, 'reset', mutationConfig);

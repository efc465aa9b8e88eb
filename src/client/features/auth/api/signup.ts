import type { SignupInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useCodeRequest } from './code-request.js';

/** POST /auth/signup → {message}: a code is e-mailed to confirm the account. */
const signup = (body: SignupInput) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/signup', data: body });

/** The sign-up's code is the first confirmation code asked for: its resend wait starts. */
export const useSignup = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof signup> } = {}) =>
  useCodeRequest(signup, 'confirm', mutationConfig);

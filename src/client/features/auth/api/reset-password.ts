import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordInput } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';

interface ResetPasswordRequest {
  token: string;
  body: ResetPasswordInput;
}

/** POST /auth/reset-password/{token} {password, confirmPassword, email?} → {message}. */
const resetPassword = ({ token, body }: ResetPasswordRequest) =>
  apiRequest(messageResponse, {
    method: 'POST',
    url: `/auth/reset-password/${encodeURIComponent(token)}`,
    data: body,
  });

export const useResetPassword = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resetPassword> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: resetPassword });

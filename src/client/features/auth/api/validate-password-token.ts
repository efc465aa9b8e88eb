import { useMutation } from '@tanstack/react-query';
import type { CodeBody } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';

/** POST /auth/validate-password-token {token, email?} → {message}; the code stays usable. */
export const validatePasswordToken = (body: CodeBody) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/validate-password-token', data: body });

export const useValidatePasswordToken = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof validatePasswordToken> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: validatePasswordToken });

import { useMutation } from '@tanstack/react-query';
import type { CodeBody } from '@shared/schemas/auth.js';
import { apiRequest } from '@/lib/api-client.js';
import { messageResponse } from '@/lib/lazy-schemas.js';
import type { MutationConfig } from '@/lib/query/query-client.js';

/** POST /auth/confirm-account {token, email?} → {message}. */
const confirmAccount = (body: CodeBody) =>
  apiRequest(messageResponse, { method: 'POST', url: '/auth/confirm-account', data: body });

export const useConfirmAccount = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof confirmAccount> } = {}) =>
  useMutation({ ...mutationConfig, mutationFn: confirmAccount });

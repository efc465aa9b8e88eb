import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useUserMutation } from './user-mutation.js';

/** POST /auth/profile/confirm-email {token} → {message}: the new address becomes the account's. */
const confirmEmail = (token: string) =>
  apiRequest(messageSchema, {
    method: 'POST',
    url: '/auth/profile/confirm-email',
    data: { token },
  });

export const useConfirmEmail = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof confirmEmail> } = {}) =>
  useUserMutation(confirmEmail, mutationConfig);

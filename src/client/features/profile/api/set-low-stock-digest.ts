import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query-client.js';
import { useUserMutation } from './user-mutation.js';

/** PATCH /auth/profile {lowStockDigest} → {message}. */
const setLowStockDigest = (lowStockDigest: boolean) =>
  apiRequest(messageSchema, { method: 'PATCH', url: '/auth/profile', data: { lowStockDigest } });

export const useSetLowStockDigest = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof setLowStockDigest> } = {}) =>
  useUserMutation(setLowStockDigest, mutationConfig);

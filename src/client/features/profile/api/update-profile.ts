import type { z } from 'zod';
import type { profileSchema } from '@shared/schemas/auth.js';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import type { MutationConfig } from '@/lib/query/query-client.js';
import { useUserMutation } from './user-mutation.js';

type ProfileBody = z.output<typeof profileSchema>;

/** PATCH /auth/profile {name, email} → {message}. */
const updateProfile = (body: ProfileBody) =>
  apiRequest(messageSchema, { method: 'PATCH', url: '/auth/profile', data: body });

export const useUpdateProfile = ({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateProfile> } = {}) =>
  useUserMutation(updateProfile, mutationConfig);

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { profileSchema } from '@shared/schemas/auth.js';
import { messageSchema } from '@shared/schemas/common.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query-client.js';

type ProfileBody = z.output<typeof profileSchema>;

/** PATCH /auth/profile {name, email} → {message}. */
export const updateProfile = (body: ProfileBody) =>
  apiRequest(messageSchema, { method: 'PATCH', url: '/auth/profile', data: body });

/** The cached 'user' is refreshed (the header greets the new name); then the screen's onSuccess. */
export function useUpdateProfile({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updateProfile> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: updateProfile,
    onSuccess: async (data, variables, ...rest) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.user });
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  preferencesResponseSchema,
  preferencesSavedSchema,
  type PreferencesUpdate,
} from '@shared/schemas/preferences.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys, type MutationConfig } from '@/lib/query/query-client.js';
import { useMutationHook } from '@/lib/query/mutation-hook.js';

/**
 * GET /auth/preferences → {preferences}. Read once a session, like the current user: only this
 * screen changes them, and its save answers with what they are then.
 */
const preferencesQuery = queryOptions({
  queryKey: queryKeys.preferences,
  queryFn: async () =>
    (await apiRequest(preferencesResponseSchema, { url: '/auth/preferences' })).preferences,
  retry: 1,
  staleTime: Infinity,
});

export const usePreferences = () => useQuery(preferencesQuery);

/** PATCH /auth/preferences → {message, preferences}: the answer is the cached preferences. */
const updatePreferences = (changes: PreferencesUpdate) =>
  apiRequest(preferencesSavedSchema, { method: 'PATCH', url: '/auth/preferences', data: changes });

export function useUpdatePreferences({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof updatePreferences> } = {}) {
  const queryClient = useQueryClient();
  return useMutationHook(updatePreferences, mutationConfig, (data) =>
    queryClient.setQueryData(queryKeys.preferences, data.preferences),
  );
}

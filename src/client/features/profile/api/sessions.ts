import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '@shared/schemas/common.js';
import { deviceSessionListSchema } from '@shared/schemas/sessions.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

const sessionsQuery = queryOptions({
  queryKey: queryKeys.sessions,
  queryFn: async () =>
    (await apiRequest(deviceSessionListSchema, { url: '/auth/sessions' })).sessions,
  retry: 1,
});

/** GET /auth/sessions → {sessions}. */
export const useSessions = () => useQuery(sessionsQuery);

function useSessionMutation<Variables, Result>(request: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

/** DELETE /auth/sessions/{id} → {message}. */
export const useEndSession = () =>
  useSessionMutation((id: string) =>
    apiRequest(messageSchema, {
      method: 'DELETE',
      url: `/auth/sessions/${encodeURIComponent(id)}`,
    }),
  );

/** POST /auth/sessions/revoke-others → {message}. */
export const useEndOtherSessions = () =>
  useSessionMutation(() =>
    apiRequest(messageSchema, { method: 'POST', url: '/auth/sessions/revoke-others' }),
  );

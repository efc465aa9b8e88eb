import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /invitations → {invitations}: those waiting for the user's (confirmed) e-mail. */
const getInvitations = async (signal?: AbortSignal) => {
  const { invitations } = await apiRequest(
    () => import('@shared/schemas/catalogues.js').then((m) => m.receivedInvitationsResponseSchema),
    { url: '/invitations', signal },
  );
  return invitations;
};

export const invitationsQueryOptions = queryOptions({
  queryKey: queryKeys.invitations,
  queryFn: ({ signal }) => getInvitations(signal),
  retry: 1,
});

/** `enabled` false: only what the cache holds (the header waits for the page to settle). */
export const useInvitations = (enabled = true) => useQuery({ ...invitationsQueryOptions, enabled });

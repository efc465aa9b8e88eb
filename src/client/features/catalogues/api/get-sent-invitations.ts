import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { invitationsSchema } from './schemas.js';

/** GET /catalogues/{catalogueId}/invitations → {invitations}: pending, unexpired (admins). */
const getSentInvitations = async (catalogueId: string, signal?: AbortSignal) => {
  const { invitations } = await apiRequest(invitationsSchema, {
    url: `/catalogues/${encodeURIComponent(catalogueId)}/invitations`,
    signal,
  });
  return invitations;
};

export const useSentInvitations = (catalogueId: string, enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: queryKeys.sentInvitations(catalogueId),
      queryFn: ({ signal }) => getSentInvitations(catalogueId, signal),
      retry: 1,
      enabled,
    }),
  );

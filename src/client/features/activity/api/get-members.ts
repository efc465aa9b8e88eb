import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /catalogues/{catalogueId}/members → {members}: who the log can be narrowed to. */
const getMembers = async (catalogueId: string, signal?: AbortSignal) => {
  const { members } = await apiRequest(
    () => import('@shared/schemas/catalogues.js').then((m) => m.membersResponseSchema),
    { url: `/catalogues/${encodeURIComponent(catalogueId)}/members`, signal },
  );
  return members;
};

export const useMembers = (catalogueId: string) =>
  useQuery(
    queryOptions({
      queryKey: queryKeys.members(catalogueId),
      queryFn: ({ signal }) => getMembers(catalogueId, signal),
      retry: 1,
    }),
  );

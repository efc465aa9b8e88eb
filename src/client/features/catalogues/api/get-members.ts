import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { membersSchema } from './schemas.js';

/** GET /catalogues/{catalogueId}/members → {members}: the owner first, then by name. */
const getMembers = async (catalogueId: string, signal?: AbortSignal) => {
  const { members } = await apiRequest(membersSchema, {
    url: `/catalogues/${encodeURIComponent(catalogueId)}/members`,
    signal,
  });
  return members;
};

export const membersQueryOptions = (catalogueId: string) =>
  queryOptions({
    queryKey: queryKeys.members(catalogueId),
    queryFn: ({ signal }) => getMembers(catalogueId, signal),
    retry: 1,
  });

export const useMembers = (catalogueId: string) => useQuery(membersQueryOptions(catalogueId));

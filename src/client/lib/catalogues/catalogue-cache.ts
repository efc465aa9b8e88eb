import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query/query-client.js';

/**
 * Forgets everything cached of a shared catalogue (its list, products, history, members and
 * invitations): it was deleted, or the user left or was removed, and none of it may stay readable
 * offline.
 */
export function dropCatalogueCache(queryClient: QueryClient, catalogueId: string) {
  for (const queryKey of [
    queryKeys.products(catalogueId),
    queryKeys.catalogueProducts(catalogueId),
    queryKeys.members(catalogueId),
    queryKeys.sentInvitations(catalogueId),
  ]) {
    queryClient.removeQueries({ queryKey });
  }
}

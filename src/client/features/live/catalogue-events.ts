import type { QueryClient } from '@tanstack/react-query';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import { dropCatalogueCache } from '@/lib/catalogues/catalogue-cache.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** What the stream says about one of the user's catalogues itself. */
export interface CatalogueEvent {
  /** Renamed, or its members or roles changed; or the user is no longer in it. */
  kind: 'catalogue.updated' | 'catalogue.removed';
  catalogueId: string;
}

export interface CatalogueHandlers {
  /** The user's id: the personal catalogue's events carry it as their catalogueId. */
  userId?: string;
  /** A catalogue the user lost (left, removed, deleted), with the name it last had here. */
  onCatalogueRemoved?: (catalogueId: string, name: string | undefined) => void;
}

/**
 * A catalogue changed: the catalogues are read again (its name, the user's role), and its members
 * if a screen shows them. A catalogue the user lost: everything cached of it goes, and the screens
 * are told (the user may be on one of them).
 */
export async function applyCatalogueEvent(
  queryClient: QueryClient,
  { kind, catalogueId }: CatalogueEvent,
  { onCatalogueRemoved }: CatalogueHandlers = {},
) {
  if (kind === 'catalogue.updated') {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true }),
      queryClient.invalidateQueries({ queryKey: queryKeys.members(catalogueId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.sentInvitations(catalogueId) }),
    ]);
    return;
  }
  const name = queryClient
    .getQueryData<Catalogue[]>(queryKeys.catalogues)
    ?.find((catalogue) => catalogue.id === catalogueId)?.name;
  dropCatalogueCache(queryClient, catalogueId);
  queryClient.setQueryData<Catalogue[]>(queryKeys.catalogues, (catalogues) =>
    catalogues?.filter((catalogue) => catalogue.id !== catalogueId),
  );
  onCatalogueRemoved?.(catalogueId, name);
  await queryClient.invalidateQueries({ queryKey: queryKeys.catalogues, exact: true });
}

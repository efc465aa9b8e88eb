import { redirect } from 'react-router';
import { cataloguesQueryOptions } from '@/lib/catalogues/get-catalogues.js';
import type { KeptCatalogue } from '@/lib/catalogues/kept-catalogue.js';
import { paths } from '@/lib/paths.js';
import { queryClient } from '@/lib/query/query-client.js';

/** Whether the list was asked for at the address the page itself was opened at. */
function isArrival(request: Request) {
  const [opened] = performance.getEntriesByType('navigation');
  if (!opened) return false;
  const openedAt = new URL(opened.name);
  const asked = new URL(request.url);
  return openedAt.pathname === asked.pathname && openedAt.search === asked.search;
}

/**
 * Opening the app at '/' (the personal list, no search) goes to the shared catalogue the user
 * last worked in, while it is still one of theirs. Only when the page is opened there, the list's
 * first showing: a link or the switcher to the personal catalogue, and the screens the spec sends
 * to '/' after signing in, stay where they lead.
 */
export async function returnToCatalogue(
  request: Request,
  kept: KeptCatalogue,
  user: Promise<{ id: string } | undefined>,
) {
  if (!isArrival(request) || new URL(request.url).search) return;
  if (kept.userId !== (await user)?.id) return;
  const cached = queryClient.getQueryData(cataloguesQueryOptions.queryKey);
  // Offline, a read would wait for the connection: what was kept decides.
  const catalogues = navigator.onLine
    ? await queryClient.fetchQuery(cataloguesQueryOptions).catch(() => cached)
    : cached;
  const catalogue = catalogues?.find((one) => one.id === kept.catalogueId);
  if (catalogue && !catalogue.personal) {
    throw redirect(paths.products.list.getHref(catalogue.id));
  }
}

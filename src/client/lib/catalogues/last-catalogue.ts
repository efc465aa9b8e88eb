import { redirect } from 'react-router';
import { paths } from '@/lib/paths.js';
import { queryClient } from '@/lib/query/query-client.js';
import { cataloguesQueryOptions } from './get-catalogues.js';

/**
 * The catalogue a user last worked in, so that opening the app goes back to it: someone who works
 * in a team's catalogue should not land in their own empty one on every visit. Kept per browser,
 * with the user it belongs to.
 */
const LAST_CATALOGUE_KEY = 'stockroom.lastCatalogue';

interface LastCatalogue {
  userId: string;
  /** A shared catalogue's id; undefined for the personal one. */
  catalogueId?: string;
}

function readLast(): LastCatalogue | undefined {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(LAST_CATALOGUE_KEY) ?? 'null');
    if (stored && typeof stored === 'object' && 'userId' in stored) return stored as LastCatalogue;
  } catch {
    // Unreadable (or storage refused): as if nothing was kept.
  }
  return undefined;
}

/** The list of a catalogue was shown: it is the one to come back to. */
export function rememberCatalogue(userId: string, catalogueId: string | undefined) {
  try {
    localStorage.setItem(LAST_CATALOGUE_KEY, JSON.stringify({ userId, catalogueId }));
  } catch {
    // Private mode or a full storage: the app opens on the personal catalogue, as before.
  }
}

let arrivalSeen = false;

/** Whether this is the address the page itself was opened at, asked for the first time. */
function isArrival(request: Request) {
  if (arrivalSeen) return false;
  arrivalSeen = true;
  const [opened] = performance.getEntriesByType('navigation');
  if (!opened) return false;
  const openedAt = new URL(opened.name);
  const asked = new URL(request.url);
  return openedAt.pathname === asked.pathname && openedAt.search === asked.search;
}

/**
 * Opening the app at '/' (the personal list, no search) goes to the shared catalogue the user
 * last worked in, while it is still one of theirs. Only when the page is opened there: a link or
 * the switcher to the personal catalogue, and the screens the spec sends to '/' after signing in,
 * stay where they lead.
 */
export async function returnToLastCatalogue(request: Request, user: Promise<{ id: string }>) {
  if (!isArrival(request) || new URL(request.url).search) return;
  const last = readLast();
  if (!last?.catalogueId || last.userId !== (await user).id) return;
  const cached = queryClient.getQueryData(cataloguesQueryOptions.queryKey);
  // Offline, a read would wait for the connection: what was kept decides.
  const catalogues = navigator.onLine
    ? await queryClient.fetchQuery(cataloguesQueryOptions).catch(() => cached)
    : cached;
  const catalogue = catalogues?.find((one) => one.id === last.catalogueId);
  if (catalogue && !catalogue.personal) {
    throw redirect(paths.products.list.getHref(catalogue.id));
  }
}

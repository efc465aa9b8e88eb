import {
  defaultShouldDehydrateQuery,
  type DehydratedState,
  type Query,
} from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistedClient,
  type PersistQueryClientOptions,
  type Persister,
} from '@tanstack/react-query-persist-client';
import { clear, createStore, get, set, type UseStore } from 'idb-keyval';
import type { User } from '@shared/schemas/auth.js';
import { tokenOf } from '../auth/token.js';
import { KEPT_FOR_OFFLINE_MS, queryClient, queryKeys } from './query-client.js';

/** Bumped when the shape of the saved data sets changes: older saves are then dropped. */
const BUSTER = '2';
/** Saving on every cache change would write the whole cache many times a second while loading. */
const SAVE_EVERY_MS = 1_000;
/** Whose saved cache this browser holds (a user id), beside the token in local storage. */
const OWNER_KEY = 'OfflineCacheOwner';
/** The cache as a page being left held it, in local storage until IndexedDB has a newer save. */
const LEFT_KEY = 'OfflineCacheOnLeave';
/**
 * The most that copy holds, in characters. Four lists of 500 products read in every sort and 200
 * products opened with their history weigh 2.3 million, 12 ms to stringify on a server core (a
 * phone takes several times that as the page goes). Browsers give an origin about 5 million
 * characters of local storage, which the token and the owner key share: a fifth of it leaves
 * them room, and what is not kept is in IndexedDB's last save, as restored under this copy.
 */
const LEFT_MAX = 1_000_000;

/**
 * The data sets worth reading offline: the user, their catalogues, each catalogue's list pages,
 * products and their history, the locations (a bin's code scanned offline is found) and the
 * counts and the purchase orders (an order read online is received against by scan offline).
 */
const PERSISTED_ROOTS = new Set<unknown>([
  queryKeys.user[0],
  queryKeys.catalogues[0],
  queryKeys.allProducts[0],
  queryKeys.productById[0],
  'locations',
  // A count's lines and the open counts: counting on /scan goes on offline.
  'counts',
  'purchasing',
]);

let store: UseStore | undefined;
/** Opened on first use: the database does not exist for the tests, nor for a visitor signed out. */
const storeOf = () => (store ??= createStore('stockroom-offline', 'queries'));

type DehydratedQuery = DehydratedState['queries'][number];

const keyOf = (userId: string) => `queries:${userId}`;

/** The id of the user a saved cache belongs to: the one its current-user data set names. */
function ownerOf(client: PersistedClient): string | undefined {
  const userQuery = client.clientState.queries.find(
    ({ queryKey }) => queryKey[0] === queryKeys.user[0],
  );
  return (userQuery?.state.data as User | undefined)?.id;
}

function readOwner() {
  try {
    return localStorage.getItem(OWNER_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

let pending: ReturnType<typeof setTimeout> | undefined;
let latest: PersistedClient | undefined;
/** The newest state not yet written to IndexedDB, waiting for its second or being written. */
let unsaved: PersistedClient | undefined;
/** When the state this page kept in local storage on leaving was taken. */
let keptAt: number | undefined;

/**
 * Whether a state may be saved as `owner`'s: the browser's token is theirs. A tab still showing
 * a user whom another tab logged out (and someone else in) holds that user's data in memory: it
 * is never written back, under any key.
 */
const isTokenOf = (owner: string | undefined): owner is string => tokenOf(owner) !== undefined;

/** Writes the latest state under its user's key; nothing while no user is known or signed in. */
async function save() {
  pending = undefined;
  const client = latest;
  latest = undefined;
  const owner = client && ownerOf(client);
  if (!client || !isTokenOf(owner)) return;
  localStorage.setItem(OWNER_KEY, owner);
  await set(keyOf(owner), client, storeOf());
  if (unsaved === client) unsaved = undefined;
  // A copy kept on leaving, older than this save (an earlier page's is): no longer needed.
  if (keptAt === undefined || client.timestamp >= keptAt) {
    keptAt = undefined;
    localStorage.removeItem(LEFT_KEY);
  }
}

/**
 * The client as JSON of at most LEFT_MAX characters: the current user's data set (it names the
 * owner), then the others most recently read first, which include all a save has not written yet.
 * Each is stringified alone, one too large is passed over, and the stringifying stops after
 * twice LEFT_MAX. What the user typed is none of it: the changes waiting to be sent have a store
 * of their own (lib/stock-change/offline), written as they are made.
 */
function boundedJson({ clientState, ...rest }: PersistedClient): string {
  const first = (query: DehydratedQuery) => (query.queryKey[0] === queryKeys.user[0] ? 0 : 1);
  const queries = [...clientState.queries].sort(
    (a, b) => first(a) - first(b) || b.state.dataUpdatedAt - a.state.dataUpdatedAt,
  );
  const head = `${JSON.stringify(rest).slice(0, -1)},"clientState":{"mutations":${JSON.stringify(clientState.mutations)},"queries":[`;
  const kept: string[] = [];
  let size = head.length + 3;
  let read = 0;
  for (const query of queries) {
    if (read > 2 * LEFT_MAX) break;
    const text = JSON.stringify(query);
    read += text.length;
    if (size + text.length + 1 > LEFT_MAX) continue;
    kept.push(text);
    size += text.length + 1;
  }
  return `${head}${kept.join(',')}]}}`;
}

/**
 * A page being left may end before a write of IndexedDB begun now is done: the state not yet
 * saved goes to local storage as well (bounded: boundedJson), written before this returns.
 */
function keepOnLeaving() {
  const client = unsaved;
  const owner = client && ownerOf(client);
  // Hidden, then left: kept once.
  if (!client || !isTokenOf(owner) || keptAt === client.timestamp) return;
  try {
    localStorage.setItem(OWNER_KEY, owner);
    localStorage.setItem(LEFT_KEY, boundedJson(client));
    keptAt = client.timestamp;
  } catch {
    // Full or unavailable: the write to IndexedDB that follows is all there is.
  }
}

/** What a page kept on leaving, if it is the owner's. */
function keptOnLeaving(owner: string): PersistedClient | undefined {
  try {
    const text = localStorage.getItem(LEFT_KEY);
    const client = text === null ? undefined : (JSON.parse(text) as PersistedClient);
    return client && ownerOf(client) === owner ? client : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The newer of IndexedDB's save and the copy kept on leaving. The copy may hold only part of the
 * cache (boundedJson): the save's data sets fill in the rest, each as the newer of the two has it.
 */
function newest(saved: PersistedClient | undefined, kept: PersistedClient | undefined) {
  if (!kept || (saved && saved.timestamp >= kept.timestamp)) return saved;
  if (!saved || saved.buster !== kept.buster) return kept;
  const queries = new Map(saved.clientState.queries.map((query) => [query.queryHash, query]));
  for (const query of kept.clientState.queries) {
    const other = queries.get(query.queryHash);
    if (!other || other.state.dataUpdatedAt <= query.state.dataUpdatedAt) {
      queries.set(query.queryHash, query);
    }
  }
  return { ...kept, clientState: { ...kept.clientState, queries: [...queries.values()] } };
}

/** A save still waiting for its second goes at once when the page is hidden or left. */
function saveNow() {
  keepOnLeaving();
  if (pending === undefined) return;
  clearTimeout(pending);
  void save().catch((error: unknown) => console.warn('Not saved for offline', error));
}

let flushing = false;
function flushWhenHidden() {
  if (flushing || typeof document === 'undefined') return;
  flushing = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') saveNow();
  });
  window.addEventListener('pagehide', saveNow);
}

/**
 * The persister of the query cache, in IndexedDB (idb-keyval), keyed by user id. A saved cache is
 * restored only when the stored token is known to be the user's this browser last saved for, and
 * only when the user inside it is that same user: a second guard behind the clearing at every
 * session's start and end (clearPersistedQueries).
 */
const userPersister: Persister = {
  persistClient(client) {
    flushWhenHidden();
    latest = client;
    unsaved = client;
    pending ??= setTimeout(
      () => void save().catch((error: unknown) => console.warn('Not saved for offline', error)),
      SAVE_EVERY_MS,
    );
  },
  async restoreClient() {
    const owner = readOwner();
    if (!isTokenOf(owner)) return undefined;
    const saved = await get<PersistedClient>(keyOf(owner), storeOf());
    const client = newest(saved, keptOnLeaving(owner));
    return client && ownerOf(client) === owner ? client : undefined;
  },
  removeClient: () => clearPersistedQueries(),
};

/**
 * Forgets every saved cache and the pending save: at logout, at a session that ended (401) and at
 * a login, so that nothing of one user is restored for the next.
 */
export async function clearPersistedQueries() {
  clearTimeout(pending);
  pending = undefined;
  latest = undefined;
  unsaved = undefined;
  keptAt = undefined;
  try {
    localStorage.removeItem(OWNER_KEY);
    localStorage.removeItem(LEFT_KEY);
  } catch {
    // Storage unavailable: nothing was saved either.
  }
  if (typeof indexedDB === 'undefined') return;
  try {
    await clear(storeOf());
  } catch (error) {
    console.warn('The saved data could not be cleared', error);
  }
}

const isPersisted = (query: Query) =>
  defaultShouldDehydrateQuery(query) && PERSISTED_ROOTS.has(query.queryKey[0]);

const persistOptions: Omit<PersistQueryClientOptions, 'queryClient'> = {
  persister: userPersister,
  maxAge: KEPT_FOR_OFFLINE_MS,
  buster: BUSTER,
  dehydrateOptions: { shouldDehydrateQuery: isPersisted },
};

/**
 * What was restored comes from an earlier page, however recently it was read, and may have changed
 * since (an edit, another device): it is shown at once and read again (offline, once the
 * connection is back).
 */
const readRestoredAgain = () =>
  queryClient.invalidateQueries({ refetchType: navigator.onLine ? 'active' : 'none' });

let restored: Promise<void> | undefined;

/**
 * Restores what the user saw on an earlier visit (once a page), then saves the cache as it
 * changes. The signed-in routes' loaders wait for it before they read anything: offline, a screen
 * opens from it instead of failing, and online it shows at once while it is read again.
 */
export function restoreSavedQueries(): Promise<void> {
  restored ??= (async () => {
    const options = { ...persistOptions, queryClient };
    try {
      await persistQueryClientRestore(options);
    } catch (error) {
      console.warn('The saved data could not be restored', error);
    }
    void readRestoredAgain();
    persistQueryClientSubscribe(options);
  })();
  return restored;
}

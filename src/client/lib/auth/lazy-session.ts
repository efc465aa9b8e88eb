import { useSyncExternalStore } from 'react';
import { ACCESS_TOKEN_KEY } from '@shared/constants.js';
import { cachedImport } from '@/lib/lazy-import.js';
import { removeToken, setToken } from './token.js';

/**
 * The session's start and end as the query cache sees them, loaded when first needed: the login
 * page runs without TanStack Query, which only the screens that read data need. The token itself
 * changes at once; what the cache drops follows as soon as the code is there (already loaded on
 * every screen that has cached anything).
 */
const loadSession = cachedImport(() =>
  Promise.all([import('../session/session.js'), import('@/lib/query/query-client.js')]),
);

export async function startSessionLater(token: string) {
  setToken(token);
  const [{ startSession }, { queryClient }] = await loadSession();
  startSession(queryClient, token);
}

export async function endSessionLater() {
  removeToken();
  const [{ endSession }, { queryClient }] = await loadSession();
  endSession(queryClient);
}

/** How many times another tab changed the session under this one: a key for its screens. */
let changesElsewhere = 0;
const listeners = new Set<() => void>();

async function sessionChangedLater() {
  const [{ sessionChangedElsewhere }, { queryClient }] = await loadSession();
  sessionChangedElsewhere(queryClient);
  // Once the screens have been drawn without the data sets that went: drawn in the same pass as
  // the new screens, a part still subscribed to the cache would be updated during their render.
  setTimeout(() => {
    changesElsewhere += 1;
    listeners.forEach((listener) => listener());
  }, 0);
}

/**
 * The tabs of a browser share its token: a logout or a login in one changes it under the others,
 * which learn of it by the `storage` event (fired in every tab but the one that wrote). A tab
 * then drops what it holds of the old session and follows the new one (lib/session/session.ts).
 * Returns the function that stops listening.
 */
export function followSessionOfOtherTabs(): () => void {
  const onStorage = ({ key, oldValue, newValue }: StorageEvent) => {
    // `key` is null when the whole storage was cleared.
    if (key !== null && (key !== ACCESS_TOKEN_KEY || oldValue === newValue)) return;
    void sessionChangedLater();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * Changes with every session that another tab started or ended under this one, once its data
 * sets are gone: the signed-in screens, keyed by it, start afresh. Kept, they would go on showing
 * what they last read (a data set taken out of the cache stays with the screen that shows it).
 */
export const useSessionChangesElsewhere = () =>
  useSyncExternalStore(
    subscribe,
    () => changesElsewhere,
    () => 0,
  );

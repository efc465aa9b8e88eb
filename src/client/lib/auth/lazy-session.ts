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

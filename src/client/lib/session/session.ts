import type { Query, QueryClient } from '@tanstack/react-query';
import { clearImageCache } from '@/lib/query/image-cache.js';
import { queryKeys } from '@/lib/query/query-client.js';
import { clearPersistedQueries } from '@/lib/query/query-persistence.js';
import { removeToken, setToken } from '../auth/token.js';

/**
 * The cached data sets of the signed-in user besides the user itself: every one, whatever its
 * screen (a list of named ones left a catalogue's locations, counts or activity to the next user).
 */
const isUserData = (query: Query) => query.queryKey[0] !== queryKeys.user[0];

/**
 * What this browser kept of a session for offline reading: the saved query cache and the service
 * worker's pictures. Gone at every session's start and end: nothing of one user reaches the next.
 */
const forgetOfflineData = () => void Promise.all([clearPersistedQueries(), clearImageCache()]);

/** Login success: store the token; nothing cached belongs to the new session. */
export function startSession(queryClient: QueryClient, token: string) {
  setToken(token);
  queryClient.removeQueries();
  forgetOfflineData();
}

/**
 * What of a session this browser keeps outside the page: the token and the offline copies. It goes
 * first on logout, before leaving the screen, which can stop short (offline, the login screen's code
 * may not come and the page reloads): the browser is signed out all the same.
 */
export function forgetSessionInBrowser() {
  removeToken();
  forgetOfflineData();
}

/** The user's data sets go; the current user is reset (see endSession). */
export function dropSessionQueries(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: isUserData });
  void queryClient.resetQueries({ queryKey: queryKeys.user });
}

/**
 * Another tab logged out, or logged in (as anyone): the token under this tab changed, and what it
 * holds in memory is the old session's. It goes, and the current user is asked for again with the
 * token there is now: the new user's screens follow, or without a token the login screen (as
 * endSession's reset does). The saved copies are not this tab's to clear: the other tab cleared
 * them, and may have saved its own since.
 */
export function sessionChangedElsewhere(queryClient: QueryClient) {
  dropSessionQueries(queryClient);
}

/**
 * The one way out of a session: logout (lib/session/logout.ts), or a request whose token the server
 * no longer accepts (a 401, lib/http/axios-instance.ts). The token and the user's data sets go; the
 * current user is reset rather than dropped, so that a screen showing it asks again, fails without
 * a token, and the protected layout sends the user to /auth/login (with the way back in `next`).
 */
export function endSession(queryClient: QueryClient) {
  forgetSessionInBrowser();
  dropSessionQueries(queryClient);
}

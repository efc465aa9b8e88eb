import { queryClient, queryKeys } from '@/lib/query-client.js';
import { removeToken, setToken } from './token.js';

/** Drops every cached data set that belongs to a user, so the next one never sees them. */
function forgetUserData() {
  queryClient.removeQueries({ queryKey: queryKeys.user });
  queryClient.removeQueries({ queryKey: queryKeys.products });
  queryClient.removeQueries({ queryKey: ['editProduct'] });
}

/** Login success (spec section 4): store the token and clear the cached current user. */
export function startSession(token: string) {
  setToken(token);
  forgetUserData();
}

/** Logout, or a token the server no longer accepts: back to the signed-out state. */
export function endSession() {
  removeToken();
  forgetUserData();
}

/**
 * A request that carried the token got a 401 (expired or revoked elsewhere): remove the token and
 * reload the current user, which now fails, so the protected layout sends the user to /auth/login.
 */
export function expireSession() {
  removeToken();
  queryClient.removeQueries({ queryKey: queryKeys.products });
  queryClient.removeQueries({ queryKey: ['editProduct'] });
  void queryClient.resetQueries({ queryKey: queryKeys.user });
}

import { getToken } from './auth/token.js';

let handler: (() => void) | undefined;

/** Called when a request that carried a token gets a 401: the token expired or was revoked. */
export function setUnauthorizedHandler(next: (() => void) | undefined) {
  handler = next;
}

/**
 * A request sent with `sentToken` got a 401. The session ends only if that token is still the
 * browser's: one already replaced (a password change answers a fresh token and revokes the old
 * one) says nothing of the current session. Returns whether the session ended.
 */
export function notifyUnauthorized(sentToken: string): boolean {
  if (sentToken !== getToken()) return false;
  handler?.();
  return true;
}

import { ACCESS_TOKEN_KEY } from '@shared/constants.js';

/**
 * Whose token local storage holds: the id of the user GET /auth/user answered for it, beside the
 * token's end. The tabs of a browser share the token, and one tab's logout and login change it
 * under the others, so "a token is there" says nothing of whose it is.
 */
const OWNER_KEY = 'AccessTokenOwner';

/** Enough of a token (43 random characters) to tell it from another, without a second copy. */
const markOf = (token: string) => token.slice(-16);

/** The access token lives in localStorage under 'AccessToken'. */
export function getToken(): string | null {
  try {
    return localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** A login's token: whose it is stays unknown until its user is read (noteTokenOwner). */
export function setToken(token: string) {
  localStorage.setItem(ACCESS_TOKEN_KEY, token);
  writeOwner(token, null);
}

export function removeToken() {
  try {
    localStorage.removeItem(ACCESS_TOKEN_KEY);
    localStorage.removeItem(OWNER_KEY);
  } catch {
    // Storage unavailable: nothing to remove.
  }
}

function writeOwner(token: string, userId: string | null) {
  try {
    localStorage.setItem(OWNER_KEY, JSON.stringify({ token: markOf(token), userId }));
  } catch {
    // Storage unavailable: the owner stays unknown, and what needs it waits.
  }
}

/** The server said `token` is `userId`'s: noted while it is still the stored token. */
export function noteTokenOwner(token: string, userId: string) {
  if (getToken() === token) writeOwner(token, userId);
}

/**
 * The stored token if it is `userId`'s, as far as this browser knows (a token stored since, by a
 * login in any tab, is nobody's until its user is read). What is sent, saved or restored for a
 * user goes only with this.
 */
export function tokenOf(userId: string | undefined): string | undefined {
  const token = getToken();
  if (!token || userId === undefined) return undefined;
  try {
    const noted = localStorage.getItem(OWNER_KEY);
    // Nothing ever noted: a session begun before owners were, whose next read of the user notes
    // it. Until then its token is taken for the user as before, so that its first start offline
    // still opens what it saved. Every login notes (setToken), so this never follows one.
    if (noted === null) return token;
    const owner = JSON.parse(noted) as { token?: unknown; userId?: unknown } | null;
    return owner?.token === markOf(token) && owner.userId === userId ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The Authorization header of a request that must go with this token, whatever is stored by then. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

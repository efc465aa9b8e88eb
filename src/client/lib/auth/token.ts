import { ACCESS_TOKEN_KEY } from '@shared/constants.js';

/** The access token lives in localStorage under 'AccessToken'. */
export function getToken(): string | null {
  try {
    return localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string) {
  localStorage.setItem(ACCESS_TOKEN_KEY, token);
}

export function removeToken() {
  try {
    localStorage.removeItem(ACCESS_TOKEN_KEY);
  } catch {
    // Storage unavailable: nothing to remove.
  }
}

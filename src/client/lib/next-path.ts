/**
 * Where the login screen sends the user back to (`/auth/login?next=...`): only a path of this app.
 * Anything else (`//host`, `/\host`, `https://...`, a path that leaves the origin once resolved)
 * falls back to the product list, so that a crafted link cannot send a fresh login elsewhere.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  try {
    const url = new URL(next, window.location.origin);
    if (url.origin !== window.location.origin) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

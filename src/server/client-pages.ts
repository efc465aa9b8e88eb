/**
 * The copies of index.html that the build writes for the signed-in screens a first visit usually
 * opens, each with modulepreload hints for that screen's code (scripts/route-pages.ts).
 */
export const ROUTE_PAGES = {
  list: 'index.list.html',
  details: 'index.details.html',
} as const;

/**
 * The page to send for a client-side route: the list's or a product's copy, else index.html
 * (every other screen, and any path the app does not know: its own 404 screen shows).
 */
export function clientPageFor(url: string): string {
  const pathname = url.split('?')[0]!;
  if (pathname === '/') return ROUTE_PAGES.list;
  if (/^\/details\/product\/[^/]+$/.test(pathname)) return ROUTE_PAGES.details;
  return 'index.html';
}

import { data, replace, type ShouldRevalidateFunctionArgs } from 'react-router';
import { getErrorStatus } from '@/lib/api-error.js';
import { userQueryOptions } from '@/lib/session/get-user.js';
import { getToken } from '@/lib/auth/token.js';
import { paths } from '@/lib/paths.js';
import { queryClient } from '@/lib/query/query-client.js';
import { restoreSavedQueries } from '@/lib/query/query-persistence.js';

/**
 * The signed-in routes' loaders: they run before a screen renders, so that the sign-in decision
 * and each screen's first data are the router's, not an effect after the first paint. Data sets
 * keep their query keys (the spec's 'user', 'products', 'editProduct' and the id) and their
 * retries: the screens read the same cache afterwards.
 */

/** The login screen (replacing this entry), with the way back to the address asked for. */
function toLogin(request: Request) {
  const { pathname, search } = new URL(request.url);
  return replace(paths.auth.login.getHref(`${pathname}${search}`));
}

/**
 * Cached data as it is (even stale: offline it is all there is, and a screen refreshes its own),
 * else read now: TanStack's `ensureQueryData`, in the form its newer `query` takes it.
 */
export const cachedOrRead = <T extends object>(options: T) =>
  ({ ...options, staleTime: 'static' }) as T & { staleTime: 'static' };

/**
 * The signed-in layout's middleware: before any loader of the way there runs, a browser without a
 * token goes straight to /auth/login, replacing the entry, with the way back in `next`. It runs
 * on every navigation, and again when a session ends while a screen shows.
 */
export function requireToken({ request }: { request: Request }) {
  if (!getToken()) throw toLogin(request);
}

/**
 * The signed-in layout's loader: what an earlier visit saved is restored first, then the current
 * user is needed before anything renders. When it cannot be loaded (a session the server ended,
 * no server and nothing saved), to /auth/login as above.
 */
export async function requireUser(request: Request) {
  await restoreSavedQueries();
  requireToken({ request });
  try {
    return await queryClient.query(cachedOrRead(userQueryOptions));
  } catch {
    throw toLogin(request);
  }
}

/**
 * A screen's loader: its first data, read before it renders (beside the layout's user, not after
 * it). A product that is not there is the route's error boundary's ("not found"); a session that
 * ended on the way sends to the login screen with the way back to this screen; any other failure
 * (offline, the server down) is the screen's own to show, with its Retry, and it tries again by
 * itself.
 */
export async function loadScreenData(request: Request, read: () => Promise<unknown>) {
  await restoreSavedQueries();
  if (!getToken()) return;
  try {
    await read();
  } catch (error) {
    if (!getToken()) throw toLogin(request);
    if (getErrorStatus(error) === 404) throw data(null, { status: 404 });
  }
}

/**
 * A screen whose loader reads only its first data: it runs when the screen is entered, not when
 * the screen changes its own search or filters (the screen loads those, keeping what it shows).
 */
export const onlyWhenEntered = ({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) =>
  currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

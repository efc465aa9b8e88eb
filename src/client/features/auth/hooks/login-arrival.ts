import { useHistoryState } from '@/lib/use-hydrated.js';

/**
 * What the screen that sends the user to /auth/login knows (kept in the history entry, not the
 * URL): the e-mail to fill in, and whether a confirmation code is on its way to it (sign-up).
 */
export interface LoginArrival {
  email?: string | undefined;
  awaitingCode?: boolean;
}

/** The options of navigate(paths.auth.login.getHref(), ...) that carry `arrival`. */
export const arriveAtLogin = (arrival: LoginArrival) => ({ state: { loginArrival: arrival } });

export function useLoginArrival(): LoginArrival {
  const state = useHistoryState();
  if (typeof state !== 'object' || state === null || !('loginArrival' in state)) return {};
  const arrival = state.loginArrival as LoginArrival;
  return typeof arrival === 'object' && arrival !== null ? arrival : {};
}

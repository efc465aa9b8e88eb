import { useEffect, useState } from 'react';
import { useHydrated } from '@/lib/use-hydrated.js';

/**
 * The server mails an address at most once a minute per purpose and answers the same whether or
 * not a mail went. So the screens hold 'Resend code' back for a minute after
 * this browser tab last asked for a code for the address: a request any sooner would say "sent"
 * and send nothing. Only this tab's own history counts, never what the server knows of an account
 * (the wait is the same for everyone, and tells nothing about the address).
 */
const RESEND_WAIT_MS = 60_000;

export type CodePurpose = 'confirm' | 'reset';

// Per tab, so that a reload or a move between the code screens neither restarts nor skips the wait.
const storageKey = (purpose: CodePurpose, email: string | undefined) =>
  `stockroom:code-requested:${purpose}:${(email ?? '').trim().toLowerCase()}`;

// Where session storage is unavailable (blocked, or a private mode that throws), this page's life.
const fallback = new Map<string, number>();

function stored(key: string): number | undefined {
  try {
    return Number(sessionStorage.getItem(key)) || undefined;
  } catch {
    return fallback.get(key);
  }
}

/** A request in the future (the clock was set back since) counts as none: never wait over a minute. */
function read(key: string): number | undefined {
  const at = stored(key);
  return at !== undefined && at <= Date.now() ? at : undefined;
}

function write(key: string, at: number) {
  try {
    sessionStorage.setItem(key, String(at));
  } catch {
    fallback.set(key, at);
  }
}

/** Remembers that this tab just asked the server to mail a code (sign-up, resend, forgot, login). */
export const noteCodeRequest = (purpose: CodePurpose, email: string | undefined) =>
  write(storageKey(purpose, email), Date.now());

interface ResendWaitOptions {
  /**
   * With no request of this tab on record, count one at the screen's arrival: a screen where a
   * code is typed was most likely opened because one was just sent (a mail link opens a new tab).
   */
  countArrival: boolean;
}

/**
 * When asking for a new code for `email` works again (ms since the epoch; 0 when it does now).
 * The caller re-renders after noting a request, which is read here.
 */
export function useResendReadyAt(
  purpose: CodePurpose,
  email: string | undefined,
  { countArrival }: ResendWaitOptions,
): number {
  const [arrivedAt] = useState(() => Date.now());
  const key = storageKey(purpose, email);
  // This tab's storage counts once the page is the app's (see useHydrated).
  const requestedAt =
    (useHydrated() ? read(key) : undefined) ?? (countArrival ? arrivedAt : undefined);
  useEffect(() => {
    if (countArrival && read(key) === undefined) write(key, arrivedAt);
  }, [key, countArrival, arrivedAt]);
  return requestedAt === undefined ? 0 : requestedAt + RESEND_WAIT_MS;
}

import type { QueryClient } from '@tanstack/react-query';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { LiveEvent, LiveEventKind } from '@shared/schemas/live-events.js';
import { getToken, tokenOf } from '@/lib/auth/token.js';
import { takePosition } from '@/lib/http/live-position.js';
import { env } from '@/lib/env.js';
import { notifyUnauthorized } from '@/lib/unauthorized.js';
import { applyLiveEvent, readEverythingAgain } from './apply-live-event.js';
import {
  applyCatalogueEvent,
  type CatalogueEvent,
  type CatalogueHandlers,
} from './catalogue-events.js';

/** Waits between attempts: doubling from one second up to half a minute, with some jitter. */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;
/** Away this long, the events missed may be more than the server keeps: read everything again. */
const LONG_GAP_MS = 60_000;
/** The events' shapes: zod, loaded with this chunk's first use rather than the first screen. */
type Schemas = typeof import('@shared/schemas/live-events.js');
const loadSchemas = () => import('@shared/schemas/live-events.js');

/** A stream silent for two heartbeats is dead even if the socket says otherwise. */
const silenceMs = ({ LIVE_HEARTBEAT_MS }: Schemas) => 2 * LIVE_HEARTBEAT_MS + 5_000;

const retryDelay = (attempt: number) => {
  const base = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
};

/** A product event with the catalogue it happened in (none from a server before catalogues). */
export type CatalogueLiveEvent = LiveEvent & { catalogueId: string | undefined };

const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The `catalogueId` every event's data carries. */
const catalogueIdOf = (json: unknown) => {
  const id = (json as { catalogueId?: unknown } | null | undefined)?.catalogueId;
  return typeof id === 'string' ? id : undefined;
};

const CATALOGUE_KINDS = new Set<string | undefined>(['catalogue.updated', 'catalogue.removed']);

/** One SSE message about a catalogue itself, or undefined when it is not one. */
export function parseCatalogueEvent(message: EventSourceMessage): CatalogueEvent | undefined {
  if (!CATALOGUE_KINDS.has(message.event)) return undefined;
  const catalogueId = catalogueIdOf(jsonOf(message.data));
  if (catalogueId === undefined) return undefined;
  return { kind: message.event as CatalogueEvent['kind'], catalogueId };
}

/** One SSE message as a LiveEvent, or undefined when it is not one this client knows. */
export function parseLiveEvent(
  { liveEventSchemas }: Schemas,
  message: EventSourceMessage,
): CatalogueLiveEvent | undefined {
  const isKind = (name: string | undefined): name is LiveEventKind =>
    name !== undefined && Object.hasOwn(liveEventSchemas, name);
  if (!isKind(message.event)) return undefined;
  const json = jsonOf(message.data);
  const data = liveEventSchemas[message.event].safeParse(json);
  if (!data.success) return undefined;
  return {
    id: message.id ?? '',
    kind: message.event,
    data: data.data,
    catalogueId: catalogueIdOf(json),
  } as CatalogueLiveEvent;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows GET /api/events for the signed-in user until stopped (the events of every catalogue the
 * user belongs to; those of the personal catalogue carry the user's id as their catalogueId): a fetch stream (EventSource
 * cannot send the Authorization header), each event written into the query cache as it comes.
 * A dropped stream is opened again after a growing wait, with the last event's id as
 * Last-Event-ID so that the server sends what was missed; after a long gap the catalogue is read
 * again. A 401 ends the session as any request's does. Returns the function that stops it.
 */
export function startLiveUpdates(
  queryClient: QueryClient,
  handlers: CatalogueHandlers = {},
): () => void {
  const stopped = new AbortController();
  // From the screens' first reads on: what changed since is sent (lib/http/live-position.ts).
  let lastEventId: string | undefined = takePosition();
  let lostAt: number | undefined;
  let attempt = 0;

  /** One connection, until it ends; throws on a refusal or a failure. */
  async function follow(token: string, schemas: Schemas) {
    const SILENCE_MS = silenceMs(schemas);
    const connection = new AbortController();
    const abort = () => connection.abort();
    stopped.signal.addEventListener('abort', abort);
    let watchdog = setTimeout(abort, SILENCE_MS);
    try {
      const response = await fetch(new URL(`${env.apiUrl}/events`, location.href), {
        headers: {
          Accept: 'text/event-stream',
          Authorization: `Bearer ${token}`,
          ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
        },
        cache: 'no-store',
        signal: connection.signal,
      });
      if (response.status === 401) {
        // A token replaced meanwhile: the next connection takes the new one.
        if (!notifyUnauthorized(token)) throw new Error('Live updates: a replaced token');
        stopped.abort();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`Live updates: ${response.status}`);
      if (lostAt !== undefined && Date.now() - lostAt > LONG_GAP_MS) {
        void readEverythingAgain(queryClient);
      }
      lostAt = undefined;
      const parser = createParser({
        onEvent: (message) => {
          if (message.id) lastEventId = message.id;
          const about = parseCatalogueEvent(message);
          if (about) return void applyCatalogueEvent(queryClient, about, handlers);
          const event = parseLiveEvent(schemas, message);
          if (!event) return;
          const personal = !event.catalogueId || event.catalogueId === handlers.userId;
          void applyLiveEvent(queryClient, event, personal ? undefined : event.catalogueId);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(watchdog);
        watchdog = setTimeout(abort, SILENCE_MS);
        // Something came through: the stream works, so a later drop starts the waits afresh (a
        // proxy that closes every stream at once keeps them growing).
        attempt = 0;
        parser.feed(value);
      }
    } finally {
      clearTimeout(watchdog);
      stopped.signal.removeEventListener('abort', abort);
    }
  }

  void (async () => {
    const schemas = await loadSchemas();
    while (!stopped.signal.aborted) {
      // The user's own token only: another tab's login puts someone else's under this tab, whose
      // screens then follow the new session with a stream of their own (LiveUpdates).
      const token = handlers.userId === undefined ? getToken() : tokenOf(handlers.userId);
      if (!token) return;
      try {
        await follow(token, schemas);
      } catch {
        // Offline, the server restarting, a refusal (too many streams): tried again below.
      }
      if (stopped.signal.aborted) return;
      lostAt ??= Date.now();
      await sleep(retryDelay(attempt), stopped.signal);
      attempt += 1;
    }
  })().catch(() => undefined);

  return () => stopped.abort();
}

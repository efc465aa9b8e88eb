import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { LIVE_HEARTBEAT_MS } from '../../../shared/schemas/live-events.js';
import type { DatabaseHandle } from '../../infra/db/handle.js';
import type { Clock } from '../../lib/clock.js';

/** A stored event, as live_events holds it. */
interface EventRow {
  id: number;
  catalogue_id: string;
  kind: string;
  data: string;
}

/** One open stream: little more than its response, so that thousands stay cheap. */
interface Stream {
  ownerId: string;
  sessionId: string;
  res: ServerResponse;
  /** The id of the last event written: an event arriving twice (replay, then live) goes once. */
  lastId: number;
  /** Events that arrived while the replay was read; null once the stream is live. */
  pending: EventRow[] | null;
}

export interface HubOptions {
  /** Streams this process holds open at most (beyond: 503). */
  maxStreams: number;
  /** Streams one user may hold open at once (beyond: 429). */
  perUser: number;
  /** Where failures of the background work go. */
  warn: (error: unknown, message: string) => void;
}

/** Events kept for reconnects (the newest ones, across every catalogue); older ones mean reset. */
const KEEP_EVENTS = 10_000;
/** A replay longer than this is a reset instead: reading everything again is cheaper. */
const REPLAY_MAX = 1_000;
/** SQLite: how often the one process looks for events committed since (in-process delivery). */
const POLL_MS = 100;
/** How often open streams' sessions are checked (a revoked one closes its streams). */
const SESSION_CHECK_MS = 500;
const PRUNE_MS = 60_000;
/** Writes between turns of the event loop in a fan-out: 1,000 streams never block it long. */
const WRITES_PER_TURN = 200;

const frame = (row: EventRow) => `id: ${row.id}\nevent: ${row.kind}\ndata: ${row.data}\n\n`;
const RESET_FRAME = 'event: reset\ndata: {}\n\n';
const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** Writes unless the stream has ended: a write after the end would be an 'error' event. */
const send = (stream: Stream, text: string) => {
  if (!stream.res.writableEnded && !stream.res.destroyed) stream.res.write(text);
};

export type Refusal = 'user-limit' | 'process-limit';

/**
 * The open event streams of this process and what feeds them. Events are rows of live_events,
 * written in the transaction of their change (record.ts): on PostgreSQL every instance hears each
 * committed one's id through LISTEN (ADR 024) and reads it; on SQLite this process reads what was
 * committed since, every 100 ms. Each stream gets its owner's events in id order, once.
 */
export class LiveHub {
  private readonly byOwner = new Map<string, Set<Stream>>();
  private open = 0;
  private cursor = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Deliveries run one after another, so each stream gets events in order. */
  private delivering: Promise<void> = Promise.resolve();
  private noticed: number[] = [];
  private lastSessionVersion: string | null = null;
  private closed = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly clock: Clock,
    private readonly options: HubOptions,
  ) {}

  get size(): number {
    return this.open;
  }

  async start(): Promise<void> {
    const { database } = this;
    if (database.onLiveEvent) {
      database.onLiveEvent((notice) => {
        if (notice === 'lost') this.enqueue(() => this.resetAll());
        else this.notice(notice.id);
      });
    } else {
      this.cursor = await this.maxId();
      let polling = false;
      this.every(POLL_MS, () => {
        if (polling) return;
        polling = true;
        this.enqueue(() => this.pollSqlite().finally(() => (polling = false)));
      });
    }
    this.every(LIVE_HEARTBEAT_MS, () => this.enqueue(() => this.writeAll(HEARTBEAT_FRAME)));
    this.every(SESSION_CHECK_MS, () => this.checkSessions());
    this.every(PRUNE_MS, () => this.prune());
  }

  /** Why a new stream of this owner is refused, if it is. */
  refusal(ownerId: string): Refusal | undefined {
    if ((this.byOwner.get(ownerId)?.size ?? 0) >= this.options.perUser) return 'user-limit';
    if (this.open >= this.options.maxStreams) return 'process-limit';
    return undefined;
  }

  /**
   * Adds a stream whose headers are sent: replays what came after `lastEventId` (or sends reset
   * when those events are no longer held), then writes each new event as it commits.
   */
  async add(stream: Omit<Stream, 'lastId' | 'pending'>, lastEventId: string | undefined) {
    const entry: Stream = { ...stream, lastId: 0, pending: [] };
    let streams = this.byOwner.get(entry.ownerId);
    if (!streams) this.byOwner.set(entry.ownerId, (streams = new Set()));
    streams.add(entry);
    this.open += 1;
    entry.res.once('close', () => this.remove(entry));
    // A client gone mid-write is no failure of ours; 'close' follows and removes the stream.
    entry.res.on('error', () => {});
    send(entry, ': connected\n\n');
    try {
      await this.replay(entry, lastEventId);
    } finally {
      for (const row of entry.pending ?? []) this.writeEvent(entry, row);
      entry.pending = null;
    }
  }

  /** Ends every stream (the server is closing): clients reconnect, to this instance or another. */
  closeAll(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const streams of [...this.byOwner.values()]) {
      for (const stream of [...streams]) this.end(stream);
    }
  }

  /** Ends a stream and forgets it at once, so nothing is written to it after its end. */
  private end(stream: Stream) {
    this.remove(stream);
    stream.res.end();
  }

  private remove(stream: Stream) {
    const streams = this.byOwner.get(stream.ownerId);
    if (!streams?.delete(stream)) return;
    this.open -= 1;
    if (streams.size === 0) this.byOwner.delete(stream.ownerId);
  }

  private async replay(stream: Stream, lastEventId: string | undefined) {
    const { db } = this.database;
    const ownMax = async () =>
      (
        await db
          .selectFrom('live_events')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('catalogue_id', '=', stream.ownerId)
          .executeTakeFirst()
      )?.id ?? 0;
    if (lastEventId === undefined) {
      stream.lastId = Number(await ownMax());
      return;
    }
    const after = /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : -1;
    const bounds = await db
      .selectFrom('live_events')
      .select((eb) => [eb.fn.min('id').as('oldest'), eb.fn.max('id').as('newest')])
      .executeTakeFirst();
    const oldest = Number(bounds?.oldest ?? 1);
    const newest = Number(bounds?.newest ?? 0);
    // Every event after `after` is still held only if none after it was pruned.
    const held = after >= 0 && after >= oldest - 1 && after <= newest;
    const rows = held
      ? await db
          .selectFrom('live_events')
          .select(['id', 'catalogue_id', 'kind', 'data'])
          .where('catalogue_id', '=', stream.ownerId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(REPLAY_MAX + 1)
          .execute()
      : [];
    if (!held || rows.length > REPLAY_MAX) {
      stream.lastId = Number(await ownMax());
      send(stream, RESET_FRAME);
      return;
    }
    stream.lastId = after;
    for (const row of rows) this.writeEvent(stream, { ...row, id: Number(row.id) });
  }

  private writeEvent(stream: Stream, row: EventRow) {
    if (row.id <= stream.lastId) return;
    stream.lastId = row.id;
    send(stream, frame(row));
  }

  /** Runs deliveries one at a time, in the order they were asked for. */
  private enqueue(work: () => Promise<void>) {
    this.delivering = this.delivering.then(work).catch((error: unknown) => {
      this.options.warn(error, 'delivering live events failed');
    });
  }

  private notice(id: number) {
    this.noticed.push(id);
    // Ids that arrive together are read in one query.
    if (this.noticed.length === 1) this.enqueue(() => this.readNoticed());
  }

  private async readNoticed() {
    const ids = this.noticed;
    this.noticed = [];
    if (this.open === 0 || ids.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.database.db
        .selectFrom('live_events')
        .select(['id', 'catalogue_id', 'kind', 'data'])
        .where('id', 'in', ids.slice(i, i + 500))
        .orderBy('id')
        .execute();
      await this.deliver(rows);
    }
  }

  /** SQLite has one writer at a time, so ids commit in order: what is past the cursor is new. */
  private async pollSqlite() {
    if (this.closed) return;
    const rows = await this.database.db
      .selectFrom('live_events')
      .select(['id', 'catalogue_id', 'kind', 'data'])
      .where('id', '>', this.cursor)
      .orderBy('id')
      .limit(REPLAY_MAX)
      .execute();
    const last = rows.at(-1);
    if (last) this.cursor = Number(last.id);
    if (this.open > 0) await this.deliver(rows);
  }

  private async deliver(rows: EventRow[]) {
    let writes = 0;
    for (const raw of rows) {
      const row = { ...raw, id: Number(raw.id) };
      const streams = this.byOwner.get(row.catalogue_id);
      if (!streams) continue;
      const text = frame(row);
      for (const stream of streams) {
        if (stream.pending) stream.pending.push(row);
        else if (row.id > stream.lastId) {
          stream.lastId = row.id;
          send(stream, text);
        }
        if (++writes % WRITES_PER_TURN === 0) await nextTurn();
      }
    }
  }

  /** Notifications may have been missed: every stream's client reads everything again. */
  private async resetAll() {
    await this.writeAll(RESET_FRAME);
  }

  private async writeAll(text: string) {
    let writes = 0;
    for (const streams of [...this.byOwner.values()]) {
      for (const stream of streams) {
        if (stream.pending === null) send(stream, text);
        if (++writes % WRITES_PER_TURN === 0) await nextTurn();
      }
    }
  }

  /**
   * Closes the streams whose session is gone (logout, password change or reset, account deleted)
   * or expired. It reads only when the database may have changed since the last check.
   */
  private checkSessions() {
    if (this.open === 0) return;
    const version = this.database.contentVersion();
    if (version !== null && version === this.lastSessionVersion) return;
    void this.closeRevoked()
      .then(() => (this.lastSessionVersion = version))
      .catch((error: unknown) => this.options.warn(error, 'checking live sessions failed'));
  }

  private async closeRevoked() {
    const streams = [...this.byOwner.values()].flatMap((set) => [...set]);
    const ids = [...new Set(streams.map((stream) => stream.sessionId))];
    const alive = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.database.db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .where('expires_at', '>', this.clock.now())
        .execute();
      for (const row of rows) alive.add(row.id);
    }
    for (const stream of streams) if (!alive.has(stream.sessionId)) this.end(stream);
  }

  /** Keeps the newest KEEP_EVENTS events; a reconnect from before them gets reset. */
  private prune() {
    void sql`delete from live_events
      where id <= (select max(id) from live_events) - ${KEEP_EVENTS}`
      .execute(this.database.db)
      .catch((error: unknown) => this.options.warn(error, 'pruning live events failed'));
  }

  private async maxId(): Promise<number> {
    const row = await this.database.db
      .selectFrom('live_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  private every(ms: number, work: () => void) {
    const timer = setInterval(work, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

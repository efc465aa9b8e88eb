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

/** One open stream: little more than its response and its catalogues, so thousands stay cheap. */
interface Stream {
  userId: string;
  sessionId: string;
  res: ServerResponse;
  /** The catalogues whose events it carries: the user's memberships. */
  catalogues: Set<string>;
  /** Events that arrived while it was connecting (memberships, replay); null once it is live. */
  pending: EventRow[] | null;
}

/**
 * What a catalogue event means for the streams that get it. A membership notice is recorded in
 * the personal catalogue of the one user it concerns (its id is the user's) and names the other
 * catalogue in its data: that user joined it (`catalogue.updated`) or no longer belongs to it
 * (`catalogue.removed`). Every other event concerns the catalogue it is recorded in.
 */
interface Routing {
  /** The catalogue the event is about. */
  about: string;
  /** The user a membership notice is for; undefined for an event of the whole catalogue. */
  forUser: string | undefined;
}

function routingOf(row: EventRow): Routing | undefined {
  if (row.kind !== 'catalogue.updated' && row.kind !== 'catalogue.removed') return undefined;
  let about = row.catalogue_id;
  try {
    const data = JSON.parse(row.data) as { catalogueId?: unknown };
    if (typeof data.catalogueId === 'string') about = data.catalogueId;
  } catch {
    // not ours to judge: the event goes as it was recorded
  }
  return { about, forUser: about === row.catalogue_id ? undefined : row.catalogue_id };
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

/** What a stream starts with (LiveHub.startOf). */
interface Start {
  catalogues: string[];
  rows: EventRow[];
  after: number;
}

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
 * committed since, every 100 ms. A stream carries the events of every catalogue its user belongs
 * to, each once, in the order they are heard. Memberships are read when a stream opens and again
 * when a notice says its user joined a catalogue; a `catalogue.removed` is the last event of a
 * stream, so that nothing more of that catalogue reaches it (the client reconnects).
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<Stream>>();
  private readonly byCatalogue = new Map<string, Set<Stream>>();
  /** Streams reading their memberships and replay: they hold every event heard meanwhile. */
  private readonly connecting = new Set<Stream>();
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
        if (notice === 'lost') void this.enqueue(() => this.resetAll());
        else this.notice(notice.id);
      });
    } else {
      this.cursor = await this.maxId();
      let polling = false;
      this.every(POLL_MS, () => {
        if (polling) return;
        polling = true;
        void this.enqueue(() => this.pollSqlite().finally(() => (polling = false)));
      });
    }
    this.every(LIVE_HEARTBEAT_MS, () => void this.enqueue(() => this.writeAll(HEARTBEAT_FRAME)));
    this.every(SESSION_CHECK_MS, () => this.checkSessions());
    this.every(PRUNE_MS, () => this.prune());
  }

  /** Why a new stream of this user is refused, if it is. */
  refusal(userId: string): Refusal | undefined {
    if ((this.byUser.get(userId)?.size ?? 0) >= this.options.perUser) return 'user-limit';
    if (this.open >= this.options.maxStreams) return 'process-limit';
    return undefined;
  }

  /**
   * Adds a stream whose headers are sent: reads the user's catalogues, replays what came after
   * `lastEventId` in them (or sends reset when those events are no longer held), then writes each
   * new event as it commits.
   */
  async add(stream: Pick<Stream, 'userId' | 'sessionId' | 'res'>, lastEventId: string | undefined) {
    const entry: Stream = { ...stream, catalogues: new Set(), pending: [] };
    let streams = this.byUser.get(entry.userId);
    if (!streams) this.byUser.set(entry.userId, (streams = new Set()));
    streams.add(entry);
    this.connecting.add(entry);
    this.open += 1;
    entry.res.once('close', () => this.remove(entry));
    // A client gone mid-write is no failure of ours; 'close' follows and removes the stream.
    entry.res.on('error', () => {});
    send(entry, ': connected\n\n');
    let start: Start = { catalogues: [], rows: [], after: Number.MAX_SAFE_INTEGER };
    try {
      start = await this.startOf(entry, lastEventId);
    } catch (error) {
      // A stream that cannot know its catalogues carries none: the client reconnects.
      this.end(entry);
      throw error;
    } finally {
      await this.enqueue(() => this.goLive(entry, start));
    }
  }

  /** Ends every stream (the server is closing): clients reconnect, to this instance or another. */
  closeAll(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const streams of [...this.byUser.values()]) {
      for (const stream of [...streams]) this.end(stream);
    }
  }

  /** Ends a stream and forgets it at once, so nothing is written to it after its end. */
  private end(stream: Stream) {
    this.remove(stream);
    stream.res.end();
  }

  private remove(stream: Stream) {
    const streams = this.byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    this.open -= 1;
    if (streams.size === 0) this.byUser.delete(stream.userId);
    this.connecting.delete(stream);
    this.subscribe(stream, []);
  }

  private isOpen(stream: Stream) {
    return this.byUser.get(stream.userId)?.has(stream) === true;
  }

  /** Makes the stream carry exactly these catalogues. */
  private subscribe(stream: Stream, catalogues: Iterable<string>) {
    const wanted = new Set(catalogues);
    for (const id of stream.catalogues) {
      if (wanted.has(id)) continue;
      const streams = this.byCatalogue.get(id);
      streams?.delete(stream);
      if (streams?.size === 0) this.byCatalogue.delete(id);
    }
    for (const id of wanted) {
      if (stream.catalogues.has(id)) continue;
      let streams = this.byCatalogue.get(id);
      if (!streams) this.byCatalogue.set(id, (streams = new Set()));
      streams.add(stream);
    }
    stream.catalogues = wanted;
  }

  private async memberships(userId: string): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('catalogue_members')
      .select('catalogue_id')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((row) => row.catalogue_id);
  }

  /**
   * What a stream starts with: the user's catalogues now, and the events after `lastEventId` in
   * them (none, and `reset`, when some are no longer held). `after`: events up to it are not
   * written, as the client has them (or, without `lastEventId`, they came before it connected).
   */
  private async startOf(stream: Stream, lastEventId: string | undefined): Promise<Start> {
    const { db } = this.database;
    const catalogues = await this.memberships(stream.userId);
    if (lastEventId === undefined) return { catalogues, rows: [], after: await this.maxId() };
    const after = /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : -1;
    const bounds = await db
      .selectFrom('live_events')
      .select((eb) => [eb.fn.min('id').as('oldest'), eb.fn.max('id').as('newest')])
      .executeTakeFirst();
    const oldest = Number(bounds?.oldest ?? 1);
    const newest = Number(bounds?.newest ?? 0);
    // Every event after `after` is still held only if none after it was pruned.
    const held = after >= 0 && after >= oldest - 1 && after <= newest;
    const rows =
      held && catalogues.length > 0
        ? await db
            .selectFrom('live_events')
            .select(['id', 'catalogue_id', 'kind', 'data'])
            .where('catalogue_id', 'in', catalogues)
            .where('id', '>', after)
            .orderBy('id')
            .limit(REPLAY_MAX + 1)
            .execute()
        : [];
    if (!held || rows.length > REPLAY_MAX) {
      send(stream, RESET_FRAME);
      return { catalogues, rows: [], after: await this.maxId() };
    }
    return { catalogues, rows: rows.map((row) => ({ ...row, id: Number(row.id) })), after };
  }

  /**
   * Runs in the delivery queue: the stream takes its catalogues, writes its replay, then what was
   * heard while it connected (neither twice), and from then on gets events as they are heard.
   */
  private async goLive(stream: Stream, start: Start) {
    const pending = stream.pending ?? [];
    stream.pending = null;
    this.connecting.delete(stream);
    if (!this.isOpen(stream)) return;
    this.subscribe(stream, start.catalogues);
    const replayed = new Set<number>();
    for (const row of start.rows) {
      replayed.add(row.id);
      await this.writeEvent(stream, row);
    }
    for (const row of pending) {
      if (row.id <= start.after || replayed.has(row.id)) continue;
      if (stream.catalogues.has(row.catalogue_id)) await this.writeEvent(stream, row);
    }
  }

  /**
   * Writes one event of a catalogue the stream carries, and follows what it says of memberships:
   * a notice for someone else is not written; `catalogue.removed` ends the stream; a notice of
   * joining a catalogue reads the user's catalogues again first.
   */
  private async writeEvent(stream: Stream, row: EventRow, routing = routingOf(row)) {
    if (!this.isOpen(stream)) return;
    if (!routing) return send(stream, frame(row));
    if (routing.forUser !== undefined && routing.forUser !== stream.userId) return;
    if (row.kind === 'catalogue.removed') {
      // The stream ends after it: nothing more of that catalogue can reach it, and the client's
      // reconnect (after this event's id) reads the memberships afresh.
      send(stream, frame(row));
      this.end(stream);
      return;
    }
    if (routing.forUser !== undefined && !stream.catalogues.has(routing.about)) {
      await this.refreshMemberships(stream.userId);
    }
    send(stream, frame(row));
  }

  /** A user joined a catalogue: their live streams carry what they belong to now. */
  private async refreshMemberships(userId: string) {
    const catalogues = await this.memberships(userId);
    for (const stream of this.byUser.get(userId) ?? []) {
      if (stream.pending === null) this.subscribe(stream, catalogues);
    }
  }

  /** Runs deliveries one at a time, in the order they were asked for. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.delivering = this.delivering.then(work).catch((error: unknown) => {
      this.options.warn(error, 'delivering live events failed');
    });
    return this.delivering;
  }

  private notice(id: number) {
    this.noticed.push(id);
    // Ids that arrive together are read in one query.
    if (this.noticed.length === 1) void this.enqueue(() => this.readNoticed());
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
      for (const stream of this.connecting) stream.pending?.push(row);
      const streams = this.byCatalogue.get(row.catalogue_id);
      if (!streams) continue;
      const routing = routingOf(row);
      // A copy: a membership change made by this very event must not upset the walk.
      for (const stream of [...streams]) {
        await this.writeEvent(stream, row, routing);
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
    for (const streams of [...this.byUser.values()]) {
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
    const streams = [...this.byUser.values()].flatMap((set) => [...set]);
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

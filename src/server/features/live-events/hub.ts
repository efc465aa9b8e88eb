import { sql } from 'kysely';
import { LIVE_HEARTBEAT_MS } from '../../../shared/schemas/live-events.js';
import type { DatabaseHandle } from '../../infra/db/handle.js';
import type { Clock } from '../../lib/clock.js';
import { HEARTBEAT_FRAME, RESET_FRAME } from './events.js';
import { FanOut } from './fan-out.js';
import { ChangeFeed } from './feed.js';
import { startOf, type Start } from './replay.js';
import { SessionCheck } from './sessions.js';
import { send, StreamRegistry, type Stream } from './streams.js';

export interface HubOptions {
  /** Streams this process holds open at most (beyond: 503). */
  maxStreams: number;
  /** Where failures of the background work go. */
  warn: (error: unknown, message: string) => void;
}

/** Events kept for reconnects (the newest ones, across every catalogue); older ones mean reset. */
const KEEP_EVENTS = 10_000;
/** How often open streams' sessions are checked (a revoked one closes its streams). */
const SESSION_CHECK_MS = 500;

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
  private readonly streams = new StreamRegistry();
  private readonly fanOut: FanOut;
  private readonly feed: ChangeFeed;
  private readonly sessions: SessionCheck;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Deliveries run one after another, so each stream gets events in order. */
  private delivering: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly database: DatabaseHandle,
    clock: Clock,
    private readonly options: HubOptions,
  ) {
    this.fanOut = new FanOut(database, this.streams);
    this.feed = new ChangeFeed(database, {
      enqueue: (work) => this.enqueue(work),
      deliver: (rows) => this.fanOut.deliver(rows),
      resetAll: () => this.fanOut.writeAll(RESET_FRAME),
      every: (ms, work) => this.every(ms, work),
      openStreams: () => this.streams.size,
      closed: () => this.closed,
    });
    this.sessions = new SessionCheck(database, clock, this.streams, options.warn);
  }

  get size(): number {
    return this.streams.size;
  }

  /** Where a stream should resume to miss nothing committed before now (ChangeFeed.position). */
  position(): number {
    return this.feed.position();
  }

  async start(): Promise<void> {
    await this.feed.start();
    this.every(
      LIVE_HEARTBEAT_MS,
      () => void this.enqueue(() => this.fanOut.writeAll(HEARTBEAT_FRAME)),
    );
    this.every(SESSION_CHECK_MS, () => this.sessions.run());
  }

  /** Whether this process holds as many streams as it may (a user's are counted elsewhere). */
  isFull(): boolean {
    return this.streams.size >= this.options.maxStreams;
  }

  /**
   * Adds a stream whose headers are sent: reads the user's catalogues, replays what came after
   * `lastEventId` in them (or sends reset when those events are no longer held), then writes each
   * new event as it commits.
   */
  async add(stream: Pick<Stream, 'userId' | 'sessionId' | 'res'>, lastEventId: string | undefined) {
    const entry: Stream = { ...stream, catalogues: new Set(), pending: [] };
    this.streams.add(entry);
    entry.res.once('close', () => this.streams.remove(entry));
    // A client gone mid-write is no failure of ours; 'close' follows and removes the stream.
    entry.res.on('error', () => {});
    send(entry, ': connected\n\n');
    let start: Start = { catalogues: [], rows: [], after: Number.MAX_SAFE_INTEGER };
    try {
      start = await startOf(this.database, entry, lastEventId);
    } catch (error) {
      // A stream that cannot know its catalogues carries none: the client reconnects.
      this.streams.end(entry);
      throw error;
    } finally {
      await this.enqueue(() => this.fanOut.goLive(entry, start));
    }
  }

  /** Ends every stream (the server is closing): clients reconnect, to this instance or another. */
  closeAll(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.streams.endAll();
  }

  /** Runs deliveries one at a time, in the order they were asked for. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.delivering = this.delivering.then(work).catch((error: unknown) => {
      this.options.warn(error, 'delivering live events failed');
    });
    return this.delivering;
  }

  /** Keeps the newest KEEP_EVENTS events; a reconnect from before them gets reset. */
  async prune(): Promise<void> {
    await sql`delete from live_events
      where id <= (select max(id) from live_events) - ${KEEP_EVENTS}`.execute(this.database.db);
  }

  private every(ms: number, work: () => void) {
    const timer = setInterval(work, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

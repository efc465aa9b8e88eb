import type { DatabaseHandle } from '../../infra/db/handle.js';
import type { EventRow } from './events.js';
import { maxId, REPLAY_MAX } from './replay.js';

/** SQLite: how often the one process looks for events committed since (in-process delivery). */
const POLL_MS = 100;

/** What the change feed hands its events to: the hub. */
interface FeedSink {
  /** Runs deliveries one at a time, in the order they were asked for. */
  enqueue(work: () => Promise<void>): Promise<void>;
  deliver(rows: EventRow[]): Promise<void>;
  /** Notifications may have been missed: every stream's client reads everything again. */
  resetAll(): Promise<void>;
  every(ms: number, work: () => void): void;
  /** Streams open now: with none, events are not read. */
  openStreams(): number;
  closed(): boolean;
}

/**
 * Hears the events committed by any instance, as its database engine allows: on PostgreSQL each
 * committed one's id comes through LISTEN and is read; on SQLite what was committed since is read
 * every 100 ms.
 */
export class ChangeFeed {
  private cursor = 0;
  private noticed: number[] = [];
  /** The newest event id heard of (PostgreSQL); SQLite's is the cursor. */
  private newest = 0;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly sink: FeedSink,
  ) {}

  /**
   * The newest event this process has heard of: at or behind every change committed before it was
   * asked (never ahead), so that a stream resuming from it misses none of them. A change already
   * read may come again; applying it twice does no harm.
   */
  position(): number {
    return Math.max(this.cursor, this.newest);
  }

  async start(): Promise<void> {
    const { database, sink } = this;
    if (database.onLiveEvent) {
      this.newest = await maxId(database);
      database.onLiveEvent((notice) => {
        if (notice === 'lost') void sink.enqueue(() => sink.resetAll());
        else this.notice(notice.id);
      });
    } else {
      this.cursor = await maxId(database);
      let polling = false;
      sink.every(POLL_MS, () => {
        if (polling) return;
        polling = true;
        void sink.enqueue(() => this.pollSqlite().finally(() => (polling = false)));
      });
    }
  }

  private notice(id: number) {
    this.newest = Math.max(this.newest, id);
    this.noticed.push(id);
    // Ids that arrive together are read in one query.
    if (this.noticed.length === 1) void this.sink.enqueue(() => this.readNoticed());
  }

  private async readNoticed() {
    const ids = this.noticed;
    this.noticed = [];
    if (this.sink.openStreams() === 0 || ids.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.database.db
        .selectFrom('live_events')
        .select(['id', 'catalogue_id', 'kind', 'data'])
        .where('id', 'in', ids.slice(i, i + 500))
        .orderBy('id')
        .execute();
      await this.sink.deliver(rows);
    }
  }

  /** SQLite has one writer at a time, so ids commit in order: what is past the cursor is new. */
  private async pollSqlite() {
    if (this.sink.closed()) return;
    const rows = await this.database.db
      .selectFrom('live_events')
      .select(['id', 'catalogue_id', 'kind', 'data'])
      .where('id', '>', this.cursor)
      .orderBy('id')
      .limit(REPLAY_MAX)
      .execute();
    const last = rows.at(-1);
    if (last) this.cursor = Number(last.id);
    if (this.sink.openStreams() > 0) await this.sink.deliver(rows);
  }
}

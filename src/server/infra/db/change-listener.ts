import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The channel that migration 008's triggers notify on every write to users, sessions, products. */
const CHANGES_CHANNEL = 'stockroom_changes';
/** A live event's id, or `lost` when notifications may have been missed. */
export type LiveEventNotice = { id: number } | 'lost';

/** The channel migration 015's trigger notifies with each new live event's id. */
const LIVE_CHANNEL = 'stockroom_live';
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'stockroom change listener';

/** A probe goes out this often (see `ChangeListener`). */
const PROBE_MS = 200;
/**
 * A version is given only while the newest probe that came back was sent at most this long ago,
 * so a change made elsewhere goes unseen for at most this long (plus the request's own time),
 * even when the connection dies without a sound: ADR 009 states 1 s.
 */
const FRESH_MS = 600;
/** A probe not back after this long: the connection is given up and a new one opened. */
const DEAD_MS = 3_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * A PostgreSQL database's content version (DatabaseHandle.contentVersion): one connection per
 * process LISTENs to every instance's commit notifications (migration 008); this process's own
 * commits count as they return. A probe sent to itself every 200 ms proves the channel live
 * (notifications arrive in commit order); without a recent probe there is no version and callers
 * read the database. Each connection starts a new epoch; a dropped one reopens with back-off.
 */
export class ChangeListener {
  private readonly probeChannel = `stockroom_probe_${randomBytes(8).toString('hex')}`;
  private client: pg.Client | undefined;
  private epoch = 0;
  private changes = 0;
  /** When the newest probe that came back was sent (performance.now()). */
  private provenAt = -Infinity;
  /** Probes sent and not back yet, by the time each was sent, oldest first. */
  private probesInFlight: number[] = [];
  private probing: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryDelay = RETRY_FIRST_MS;
  private stopped = false;
  private liveListener: ((notice: LiveEventNotice) => void) | undefined;

  constructor(private readonly connectionString: string) {}

  /** Opens the listening connection; when that fails, keeps trying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  /**
   * Hears each committed live event's id (migration 015), and `lost` when a new connection
   * replaced one that dropped: what was notified in between is unknown.
   */
  onLiveEvent(listener: (notice: LiveEventNotice) => void): void {
    this.liveListener = listener;
  }

  version(): string | null {
    if (this.probing === undefined) return null;
    if (performance.now() - this.provenAt > FRESH_MS) return null;
    return `${this.epoch}:${this.changes}`;
  }

  /** A write of this process has committed (or may have): what was cached before is stale. */
  noteCommittedWrite(): void {
    this.changes += 1;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    if (!this.client) return;
    // A server that stopped answering may never close its end: do not wait long for it.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
    await Promise.race([this.drop(this.client), gaveUp]);
    clearTimeout(timer);
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: 5_000,
    });
    this.client = client;
    // A connection that dies emits 'error' (and 'end'); unhandled, 'error' would end the process.
    client.on('error', () => void this.drop(client));
    client.on('end', () => void this.drop(client));
    client.on('notification', ({ channel, payload }) => {
      if (channel === LIVE_CHANNEL) this.liveListener?.({ id: Number(payload) });
      if (channel !== this.probeChannel) this.changes += 1;
      else if (this.client === client) this.provenAt = this.probesInFlight.shift() ?? this.provenAt;
    });
    try {
      await client.connect();
      await client.query(
        `listen ${CHANGES_CHANNEL}; listen ${LIVE_CHANNEL}; listen ${this.probeChannel}`,
      );
    } catch {
      void this.drop(client);
      return;
    }
    if (this.client !== client) return; // dropped or stopped meanwhile
    this.epoch += 1;
    if (this.epoch > 1) this.liveListener?.('lost');
    this.retryDelay = RETRY_FIRST_MS;
    this.probing = setInterval(() => this.probe(client), PROBE_MS);
    this.probing.unref();
    this.probe(client);
  }

  private probe(client: pg.Client) {
    const now = performance.now();
    const oldest = this.probesInFlight[0];
    if (oldest !== undefined && now - oldest > DEAD_MS) {
      void this.drop(client);
      return;
    }
    this.probesInFlight.push(now);
    client
      .query('select pg_notify($1, $2)', [this.probeChannel, ''])
      .catch(() => void this.drop(client));
  }

  /** Forgets a connection that failed (no version until the next one listens) and retries. */
  private drop(client: pg.Client): Promise<void> {
    if (this.client !== client) return Promise.resolve();
    this.client = undefined;
    clearInterval(this.probing);
    this.probing = undefined;
    this.probesInFlight = [];
    this.provenAt = -Infinity;
    client.removeAllListeners('notification');
    // Ending may wait on a server that no longer answers: only stop() waits for it.
    const ended = client.end().catch(() => {});
    if (!this.stopped) {
      this.retry = setTimeout(() => void this.connect(), this.retryDelay);
      this.retry.unref();
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    }
    return ended;
  }
}

import pg from 'pg';

/** The channel that migration 008's triggers notify on every write to users, sessions, products. */
export const CHANGES_CHANNEL = 'stockroom_changes';
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'stockroom change listener';

/** A heartbeat query goes out this often on the listening connection. */
const HEARTBEAT_MS = 200;
/**
 * A version is given only while the last heartbeat answer is at most this old. Notifications and
 * answers travel in order on one connection, so a fresh answer means every commit up to shortly
 * before it has been counted: with the heartbeat period this bounds how long a change made
 * elsewhere can go unseen, even when the connection dies without a sound (ADR 009: 1 s).
 */
const FRESH_MS = 600;
/** A heartbeat unanswered this long: the connection is given up and a new one opened. */
const DEAD_MS = 3_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * The content version of a PostgreSQL database (see DatabaseHandle.contentVersion), kept by one
 * dedicated connection per process that LISTENs for the change notifications every instance's
 * commits send, plus the commits of this process, counted as they return (`noteCommittedWrite`)
 * so that they count before their own notification arrives.
 *
 * While the connection is not listening, or not known to be alive, there is no version: callers
 * read the database. Each new connection starts a new epoch, so no version given after a
 * reconnection equals one given before it, and nothing cached before a gap is used after it.
 * A dropped connection is reopened with back-off and never ends the process.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private epoch = 0;
  private changes = 0;
  private lastAnswer = 0;
  private heartbeatSentAt: number | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryDelay = RETRY_FIRST_MS;
  private stopped = false;

  constructor(private readonly connectionString: string) {}

  /** Opens the listening connection; when that fails, keeps trying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  version(): string | null {
    if (this.client === undefined || this.heartbeat === undefined) return null;
    if (performance.now() - this.lastAnswer > FRESH_MS) return null;
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
    client.on('notification', () => {
      this.changes += 1;
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch {
      void this.drop(client);
      return;
    }
    if (this.client !== client) return; // dropped or stopped meanwhile
    this.epoch += 1;
    this.lastAnswer = performance.now();
    this.retryDelay = RETRY_FIRST_MS;
    this.heartbeat = setInterval(() => this.beat(client), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private beat(client: pg.Client) {
    const now = performance.now();
    if (this.heartbeatSentAt !== undefined) {
      if (now - this.heartbeatSentAt > DEAD_MS) void this.drop(client);
      return;
    }
    this.heartbeatSentAt = now;
    client.query('select 1').then(
      () => {
        if (this.client !== client) return;
        this.lastAnswer = performance.now();
        this.heartbeatSentAt = undefined;
      },
      () => void this.drop(client),
    );
  }

  /** Forgets a connection that failed (no version until the next one listens) and retries. */
  private drop(client: pg.Client): Promise<void> {
    if (this.client !== client) return Promise.resolve();
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.heartbeatSentAt = undefined;
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

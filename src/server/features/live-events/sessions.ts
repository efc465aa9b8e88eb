import type { DatabaseHandle } from '../../infra/db/handle.js';
import type { Clock } from '../../lib/clock.js';
import type { StreamRegistry } from './streams.js';

/**
 * Closes the streams whose session is gone (logout, password change or reset, account deleted)
 * or expired. It reads only when the database may have changed since the last check.
 */
export class SessionCheck {
  private lastSessionVersion: string | null = null;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly clock: Clock,
    private readonly streams: StreamRegistry,
    private readonly warn: (error: unknown, message: string) => void,
  ) {}

  run() {
    if (this.streams.size === 0) return;
    const version = this.database.contentVersion();
    if (version !== null && version === this.lastSessionVersion) return;
    void this.closeRevoked()
      .then(() => (this.lastSessionVersion = version))
      .catch((error: unknown) => this.warn(error, 'checking live sessions failed'));
  }

  private async closeRevoked() {
    const streams = this.streams.all();
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
    for (const stream of streams) if (!alive.has(stream.sessionId)) this.streams.end(stream);
  }
}

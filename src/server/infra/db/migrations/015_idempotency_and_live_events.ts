import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Two tables written in the transaction of a product write:
 * - `idempotency_keys`: the answer given to a write that carried an Idempotency-Key, one per
 *   (owner, key), so the same key again gets that answer and changes nothing more; the primary key
 *   makes a second writer of one key fail (and roll back) instead of applying twice.
 * - `live_events`: the events `GET /api/events` streams, kept for a while so that a reconnect
 *   resumes from its Last-Event-ID. On PostgreSQL each insert notifies `stockroom_live` with the
 *   event's id, at commit, so every instance hears it (ADR 024); SQLite's one process needs nothing.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  // SQLite: AUTOINCREMENT never gives an id again, even after the newest rows were pruned.
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['owner_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('live_events')
    .addColumn('id', serial, (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // A reconnect's replay: one owner's events after an id.
  await db.schema
    .createIndex('live_events_owner')
    .on('live_events')
    .columns(['owner_id', 'id'])
    .execute();

  if (dialect !== 'postgres') return;
  await sql`
    create or replace function stockroom_notify_live_event() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('stockroom_live', new.id::text);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger live_events_notify
    after insert on live_events
    for each row execute function stockroom_notify_live_event()`.execute(db);
}

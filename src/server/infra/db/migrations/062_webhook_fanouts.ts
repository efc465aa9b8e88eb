import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Webhook events queued in bulk. A write that takes thousands of products to their reorder point
 * has an event for each, and every listening endpoint a delivery of each: up to a million rows,
 * which held SQLite's write lock and the event loop for seconds in the write's transaction. Such a
 * write commits its events here instead, one row of bodies with the endpoints listening then, and
 * the runner writes their deliveries a short transaction at a time, `expanded` counting the events
 * written so far. Both statements may run again: instances starting together run it in turn.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('webhook_fanouts')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The endpoints listening when the write committed, a JSON array of their ids.
    .addColumn('webhook_ids', 'text', (c) => c.notNull())
    // The events' whole bodies, one per line (JSON has no raw line breaks).
    .addColumn('payloads', 'text', (c) => c.notNull())
    .addColumn('expanded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('locked_until', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  // What the runner looks for: the rows by when they are due.
  await db.schema
    .createIndex('webhook_fanouts_due')
    .ifNotExists()
    .on('webhook_fanouts')
    .column('next_attempt_at')
    .execute();
}

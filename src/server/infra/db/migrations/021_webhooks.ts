import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Webhooks: the HTTPS endpoints a catalogue's admins register, and one delivery row per event
 * and endpoint, written in the transaction of the change like the mail outbox's rows, and
 * claimed by a worker on any instance with a lease.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('catalogue_id', 'text', (c) =>
      c.notNull().references('catalogues.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', (c) => c.notNull())
    // The subscribed event types, a JSON array.
    .addColumn('events', 'text', (c) => c.notNull())
    // whsec_…: the server signs with it, so it is kept as given out.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addColumn('last_attempt_at', time)
    .addColumn('last_status', 'integer')
    .addColumn('last_succeeded', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_success_at', time)
    .addColumn('disabled_at', time)
    .execute();
  await db.schema
    .createIndex('webhooks_catalogue')
    .on('webhooks')
    .columns(['catalogue_id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('catalogue_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The whole signed body, fixed when the event happened.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time)
    .addColumn('locked_until', time)
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('delivered_at', time)
    .execute();
  // What the worker looks for: pending rows by when they are due.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  // An endpoint's newest deliveries.
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
}

import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Fair background work. The runner's claim reads which rows of a queue are leased now, per tenant
 * (a catalogue, a recipient), to keep each tenant within its bound: a partial index holds just
 * those rows. An endpoint counts its failed attempts in a row, which shorten its time limit and,
 * past a bound, disable it.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await sql`create index webhook_deliveries_leased on webhook_deliveries (locked_until)
            where locked_until is not null`.execute(db);
  await sql`create index outbox_leased on outbox (locked_until)
            where locked_until is not null`.execute(db);
  await db.schema
    .alterTable('webhooks')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // When the failures in a row began: null while the last attempt succeeded.
  await db.schema.alterTable('webhooks').addColumn('failing_since', time).execute();
}

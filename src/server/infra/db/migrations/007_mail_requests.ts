import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Mail requests in the outbox (docs/decisions/002-email-outbox.md). A request row names a recipient
 * and a kind and carries no body: the worker decides at send time whether it applies, counts it in
 * the address's budget, issues the code and renders the mail in memory. Every row is closed once
 * (sent or not, and why), and a sent row keeps no body.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .alterTable('outbox')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('notice'))
    .execute();
  for (const [column, type] of [
    ['purpose', 'text'],
    ['counted_at', time],
    ['code_id', 'text'],
    ['closed_at', time],
    ['outcome', 'text'],
  ] as const) {
    await db.schema.alterTable('outbox').addColumn(column, type).execute();
  }

  // Rows sent so far are closed, and their bodies (codes included) wiped.
  await sql`update outbox set closed_at = sent_at, outcome = 'sent', text_body = '', html_body = ''
            where sent_at is not null`.execute(db);
  // Code mails queued before this change whose code has expired by now are not worth sending.
  await sql`update outbox set closed_at = created_at, outcome = 'expired', text_body = '', html_body = ''
            where closed_at is null and text_body like '%Your code: %'
              and created_at < ${Date.now() - 10 * 60_000}`.execute(db);

  await db.schema.dropIndex('outbox_due').execute();
  await db.schema
    .createIndex('outbox_open')
    .on('outbox')
    .columns(['closed_at', 'next_attempt_at'])
    .execute();
  // The budget reads the counted requests of one address and purpose.
  await db.schema
    .createIndex('outbox_budget')
    .on('outbox')
    .columns(['recipient', 'purpose', 'created_at'])
    .execute();
}

import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * PostgreSQL only: every statement that writes users, sessions or products notifies the channel
 * that each instance's change listener hears (db/change-listener.ts), at commit, so that sessions
 * and pages kept in memory anywhere are read again (ADR 009). Notifications alike within one
 * transaction are delivered once. SQLite needs nothing: its data_version sees other processes.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    create or replace function stockroom_notify_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('stockroom_changes', '');
      return null;
    end
    $$`.execute(db);
  for (const table of ['users', 'sessions', 'products']) {
    await sql`
      create trigger ${sql.id(`${table}_notify_change`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function stockroom_notify_change()`.execute(db);
  }
}

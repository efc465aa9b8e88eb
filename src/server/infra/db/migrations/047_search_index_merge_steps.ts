import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * SQLite's search index (FTS5, migration 005) stops merging its segments inside writes: a write's
 * flush did 64 pages of merging per level of the index every 64 pages written (its automerge),
 * 30-60 ms in one statement once the index holds a few thousand pages of long descriptions, and
 * more as every tenant's products add levels. The products feature's job merges in bounded steps
 * instead, each in a transaction and a turn of its own (ADR 042). A write still merges when 16
 * segments pile up on the smallest level (FTS5's crisis merge), which costs what those writes
 * wrote, not what the index holds. FTS5 keeps the setting in the index: it is set once.
 * PostgreSQL's index (pg_trgm) has no segments: nothing to do there.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`insert into product_search(product_search, rank) values ('automerge', 0)`.execute(db);
}

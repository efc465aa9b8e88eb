import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * What the account's list of sessions shows: the browser that signed in, the address it was last
 * used from and when. Sessions from before have none of it until they are next used.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', time).execute();
}

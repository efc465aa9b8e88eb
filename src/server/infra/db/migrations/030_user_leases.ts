import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * What one user holds open on every instance at once (event streams, costly answers, imports):
 * a row each, until it ends or its lease runs out (an instance killed mid-way renews nothing).
 * A count reads one user's rows of one kind.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('user_leases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_leases_of_user')
    .on('user_leases')
    .columns(['user_id', 'kind', 'expires_at'])
    .execute();
}

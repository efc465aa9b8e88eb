import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/**
 * Bounds on code guessing (docs/decisions/003-code-protection.md): wrong tries counted per account
 * and purpose, bare failures weighted by the live codes they were tried against, and one lock row
 * per budget so that the check and the count of one budget run one at a time on every engine.
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';

  await db.schema
    .alterTable('code_failures')
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('account_code_failures')
    .addColumn('id', serial, (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_code_failures_user_purpose_at')
    .on('account_code_failures')
    .columns(['user_id', 'purpose', 'at'])
    .execute();

  await db.schema
    .createTable('code_budget_locks')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .execute();
}

import type { Kysely } from 'kysely';
import * as initial from './migrations/001_initial.js';
import * as productSearch from './migrations/002_product_search.js';
import * as catalogueVersion from './migrations/003_catalogue_version.js';
import * as productImageKey from './migrations/004_product_image_key.js';
import * as productSearchIndex from './migrations/005_product_search_index.js';
import * as codeGuessLimits from './migrations/006_code_guess_limits.js';
import * as mailRequests from './migrations/007_mail_requests.js';
import * as changeNotifications from './migrations/008_change_notifications.js';

export type MigrationDialect = 'sqlite' | 'postgres';

interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void>;
}

/** The one ordered list of migrations, applied at start-up on either engine. */
export const migrations: Migration[] = [
  { name: '001_initial', ...initial },
  { name: '002_product_search', ...productSearch },
  { name: '003_catalogue_version', ...catalogueVersion },
  { name: '004_product_image_key', ...productImageKey },
  { name: '005_product_search_index', ...productSearchIndex },
  { name: '006_code_guess_limits', ...codeGuessLimits },
  { name: '007_mail_requests', ...mailRequests },
  { name: '008_change_notifications', ...changeNotifications },
];

/**
 * Applies pending migrations in order, each in its own transaction together with its bookkeeping
 * row, so a crash never leaves a half-applied migration recorded as done.
 */
export async function migrate(db: Kysely<unknown>, dialect: MigrationDialect): Promise<string[]> {
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  const applied = new Set(
    (
      await (db as Kysely<{ schema_migrations: { name: string } }>)
        .selectFrom('schema_migrations')
        .select('name')
        .execute()
    ).map((row) => row.name),
  );
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx, dialect);
      await (trx as unknown as Kysely<{ schema_migrations: { name: string; applied_at: string } }>)
        .insertInto('schema_migrations')
        .values({ name: migration.name, applied_at: new Date().toISOString() })
        .execute();
    });
    done.push(migration.name);
  }
  return done;
}

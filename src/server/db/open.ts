import type { Kysely } from 'kysely';
import type { DatabaseHandle } from './handle.js';
import { migrate } from './migrate.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/**
 * Opens the database: PostgreSQL when a URL is given, else the embedded SQLite file in dataDir.
 * Migrations run before the handle is returned.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  const { handle, changes } = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : { handle: openSqlite(options.dataDir), changes: undefined };
  await migrate(handle.db as unknown as Kysely<unknown>, handle.dialect);
  await changes?.start();
  return handle;
}

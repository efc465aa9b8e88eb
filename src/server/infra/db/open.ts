import type { Kysely } from 'kysely';
import type { DatabaseHandle } from './handle.js';
import { migrate } from './migrate.js';

/**
 * Opens the database: PostgreSQL when a URL is given, else the embedded SQLite file in dataDir.
 * Migrations run before the handle is returned. Only the engine in use is loaded: a server on
 * SQLite never loads the PostgreSQL driver, nor one on PostgreSQL the SQLite addon.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  const { handle, changes } = options.databaseUrl
    ? (await import('./postgres.js')).openPostgres(options.databaseUrl)
    : { handle: (await import('./sqlite.js')).openSqlite(options.dataDir), changes: undefined };
  // The listening connection opens while the migrations are checked: neither needs the other.
  const listening = changes?.start();
  try {
    await migrate(handle.db as unknown as Kysely<unknown>, handle.dialect);
  } catch (error) {
    await changes?.stop();
    throw error;
  }
  await listening;
  return handle;
}

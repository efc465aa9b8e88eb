/** The environment of a benchmark's server, as production runs it. */

/**
 * A server on its own data folder, on PostgreSQL at `databaseUrl` when given (else SQLite in
 * the folder), logging warnings only.
 */
export const serverEnv = (dataDir: string, databaseUrl?: string) => ({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  APP_SECRET: 'bench-secret-that-is-at-least-32-characters-long',
  PUBLIC_URL: 'http://localhost:3000',
  LOG_LEVEL: 'warn',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

/** Rate limits kept in the request path, just high enough that one client is never throttled. */
export const UNTHROTTLED = {
  RATE_LIMIT_GENERAL: '1000000000',
  RATE_LIMIT_SENSITIVE: '1000000000',
};

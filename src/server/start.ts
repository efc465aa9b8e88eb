import { buildApp, type App } from './app.js';
import { withAppSecret } from './app-secret.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './infra/db/open.js';
import type { DatabaseHandle } from './infra/db/handle.js';
import { DRAIN_MS } from './http/graceful-close.js';

/**
 * Loads the configuration and its secret (generated into DATA_DIR on the first start without
 * APP_SECRET), or prints one line per problem and exits.
 */
export function loadConfigOrExit(): Config {
  try {
    return withAppSecret(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(`Invalid configuration: ${problem}`);
      process.exit(1);
    }
    throw error;
  }
}

export interface RunningServer {
  app: App;
  database: DatabaseHandle;
}

/**
 * Database and migrations, the app with its background runner (mail, webhook deliveries, the
 * digest, the sweeps), then listening: what both entries share.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase(config);
  const app = await buildApp({ config, database, background: true });
  await app.listen({ port: config.port, host: config.host });
  return { app, database };
}

/** Past this, a shutdown that hangs anyway (a stuck database close) ends with exit code 1. */
const SHUTDOWN_LIMIT_MS = DRAIN_MS + 3_000;

/**
 * Stops on SIGTERM or SIGINT: the app stops accepting, finishes what is in flight (at most
 * DRAIN_MS, see http/graceful-close.ts) and stops the background runner; then the database closes and
 * the process exits 0.
 */
export function stopOnSignals(server: RunningServer, before: () => Promise<void> = async () => {}) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
    try {
      await before();
      await server.app.close();
      await server.database.close();
      process.exit(0);
    } catch (error) {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

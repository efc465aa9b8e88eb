import { buildApp, type App } from './app.js';
import { withAppSecret } from './app-secret.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './infra/db/open.js';
import type { DatabaseHandle } from './infra/db/handle.js';
import { DRAIN_MS } from './http/graceful-close.js';
import { ProductRepository, sweepOrphanImages } from './features/products/index.js';

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

/** Database and migrations, the app, the mail worker, then listening: what both entries share. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  app.outbox.start();
  app.webhookDeliverer.start();
  await app.listen({ port: config.port, host: config.host });
  sweepInBackground(app, database);
  return { app, database };
}

/** How often the sweep runs again: deleted products' pictures go once 7 days have passed. */
const SWEEP_EVERY_MS = 24 * 60 * 60 * 1000;
/** The first sweep waits this long: it reads every image file, which the first requests need not. */
const FIRST_SWEEP_AFTER_MS = 2_000;

/**
 * Image files a crash left behind, and pictures of products deleted more than 7 days ago (no
 * longer undoable), removed shortly after the server is up without holding up start-up, then daily.
 */
function sweepInBackground(app: App, database: DatabaseHandle) {
  const repository = new ProductRepository(database.db, database.dialect);
  const sweep = () =>
    sweepOrphanImages(app.images, repository, app.clock.now())
      .then((removed) => {
        if (removed.length > 0) app.log.info({ files: removed }, 'removed orphan image files');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'orphan image sweep failed'));
  // Unref'd: they never keep a stopping process alive.
  setTimeout(() => void sweep(), FIRST_SWEEP_AFTER_MS).unref();
  setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
}

/** Past this, a shutdown that hangs anyway (a stuck database close) ends with exit code 1. */
const SHUTDOWN_LIMIT_MS = DRAIN_MS + 3_000;

/**
 * Stops on SIGTERM or SIGINT: the app stops accepting, finishes what is in flight (at most
 * DRAIN_MS, see http/graceful-close.ts) and stops the mail worker; then the database closes and
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

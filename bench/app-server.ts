/**
 * The real server for the benchmark, in its own process: the built app on a loopback port, with
 * the DATA_DIR (and DATABASE_URL) the runner seeded. Sends its port to the parent over IPC.
 */
import { buildApp } from '../src/server/app.js';
import { withAppSecret } from '../src/server/app-secret.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/infra/db/open.js';

const config = withAppSecret(loadConfig());
const database = await openDatabase(config);
// Rate limits stay in the request path, just high enough that one client is never throttled.
const app = await buildApp({
  config,
  database,
  rateLimits: { general: 1e9, sensitive: 1e9 },
  // Asked for by the runner to show what a read costs when it must query (after a write).
  ...(process.env.BENCH_RESPONSE_CACHE === 'off' ? { responseCacheBytes: 0 } : {}),
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });

process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});

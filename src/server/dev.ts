/**
 * `npm run dev`: the API (NODE_ENV=development) and the Vite dev server with hot reload, in one
 * process. Vite proxies /api to the API; without SMTP_URL the mails land in DATA_DIR/mail and the
 * app lists them at /dev/mailbox. Not part of the production build (tsconfig.server.json).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import viteConfig from '../../vite.config.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/index.js';

const VITE_PORT = Number(process.env.VITE_PORT ?? 5173);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Paths the Vite server hands to the API: the API itself and the pictures it serves. */
const API_PATHS = ['/api', '/uploads', '/images'];

process.env.NODE_ENV ??= 'development';
// Links in e-mails and image URLs point at the page the developer has open.
process.env.PUBLIC_URL ??= `http://localhost:${VITE_PORT}`;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(`Invalid configuration: ${problem}`);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config);
  const app = await buildApp({ config, database });
  app.deps.outbox.start();
  await app.listen({ port: config.port, host: config.host });
  const apiUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

  // The config is imported rather than loaded from its file: Vite would write a bundled copy next
  // to it, which node --watch sees as a changed import and restarts for.
  const vite = await createServer({
    ...viteConfig,
    configFile: false,
    root: path.join(root, 'src/client'),
    server: {
      ...viteConfig.server,
      port: VITE_PORT,
      strictPort: true,
      proxy: Object.fromEntries(API_PATHS.map((prefix) => [prefix, apiUrl])),
    },
  });
  await vite.listen();

  const appUrl = `http://localhost:${VITE_PORT}`;
  console.log(`\n  Stockroom (development)`);
  console.log(`  App:     ${appUrl}/  (Vite, hot reload)`);
  console.log(`  API:     ${apiUrl}/api  (docs at ${apiUrl}/api/docs)`);
  if (!config.smtpUrl)
    console.log(`  Mailbox: ${appUrl}/dev/mailbox  (mails in ${config.dataDir}/mail)`);
  console.log('');

  const shutdown = async () => {
    await vite.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

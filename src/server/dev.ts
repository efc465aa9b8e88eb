/**
 * `npm run dev`: the API (NODE_ENV=development) and the Vite dev server with hot reload, in one
 * process. Vite proxies /api to the API; without SMTP_URL the mails land in DATA_DIR/mail and the
 * app lists them at /dev/mailbox. Not part of the production build (tsconfig.server.json).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { loadConfigOrExit, startServer, stopOnSignals } from './start.js';

const VITE_PORT = Number(process.env.VITE_PORT ?? 5173);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Paths the Vite server hands to the API (the pictures are served under /api/images). */
const API_PATHS = ['/api'];

process.env.NODE_ENV ??= 'development';
// Links in e-mails and image URLs point at the page the developer has open.
process.env.PUBLIC_URL ??= `http://localhost:${VITE_PORT}`;

async function main() {
  const config = loadConfigOrExit();
  const server = await startServer(config);
  const apiUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

  // React Router's plugin wants the config file itself. Loaded through Vite's module runner, which
  // writes no bundled copy beside it for node --watch to take for a changed file.
  const vite = await createServer({
    configFile: path.join(root, 'vite.config.ts'),
    configLoader: 'runner',
    root,
    server: {
      port: VITE_PORT,
      strictPort: true,
      // The browser's own Host goes through (Vite's shorthand would rewrite it to the API's
      // address): the mailbox answers only a loopback Host, and a page opened under another name
      // must not pass for the developer's.
      proxy: Object.fromEntries(
        API_PATHS.map((prefix) => [prefix, { target: apiUrl, changeOrigin: false }]),
      ),
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

  stopOnSignals(server, () => vite.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

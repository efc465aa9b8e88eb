import { readyLine } from './ready-line.js';
import { loadConfigOrExit, startServer, stopOnSignals } from './start.js';

/** Production entry: configuration, database and migrations, the app, the mail worker. */
async function main() {
  const config = loadConfigOrExit();
  const server = await startServer(config);
  stopOnSignals(server);
  server.app.log.info(readyLine(config, server.database.dialect));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

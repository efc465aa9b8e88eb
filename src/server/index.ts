import { loadConfigOrExit, startServer, stopOnSignals } from './start.js';

/** Production entry: configuration, database and migrations, the app, the mail worker. */
async function main() {
  const config = loadConfigOrExit();
  const server = await startServer(config);
  stopOnSignals(server);
  const { database } = server;
  server.app.log.info(
    `Stockroom is ready on ${config.publicUrl} (${database.dialect === 'postgres' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}, mail ${config.smtpUrl ? 'over SMTP' : `to ${config.dataDir}/mail`}, images ${config.s3 ? `in S3 bucket ${config.s3.bucket}` : `in ${config.dataDir}/images`})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

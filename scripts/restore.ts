/**
 * `npm run restore <backup folder>`: puts a backup taken by `npm run backup` (or the server's own)
 * back into DATA_DIR, on a stopped server. Every file is checked against the backup's manifest
 * first: a damaged backup changes nothing.
 */
import { loadConfig } from '../src/server/config.js';
import { restoreBackup } from '../src/server/infra/backup/backups.js';

async function main(backup: string | undefined) {
  if (!backup) {
    console.error('Usage: npm run restore <backup folder> (stop the server first)');
    process.exit(1);
  }
  const config = loadConfig(process.env);
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md).');
    process.exit(1);
  }
  const manifest = await restoreBackup(backup, config.dataDir);
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${config.dataDir}: ${manifest.counts.products ?? 0} products, ${manifest.counts.users ?? 0} accounts.`,
  );
  if (!manifest.files.some((file) => file.name === 'secret.key')) {
    console.log(
      'The backup holds no secret: start the server with the APP_SECRET it was taken under.',
    );
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

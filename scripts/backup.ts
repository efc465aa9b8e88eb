/**
 * `npm run backup [folder]`: a consistent copy of the embedded database and the images, taken
 * while the server runs, into the folder (BACKUP_DIR, else DATA_DIR/backups). Reads the server's
 * environment (DATA_DIR, DATABASE_URL, S3_BUCKET). On PostgreSQL it says to use pg_dump.
 */
import { loadConfig } from '../src/server/config.js';
import { takeBackup } from '../src/server/infra/backup/backups.js';

async function main() {
  const config = loadConfig(process.env);
  if (config.databaseUrl) {
    console.error(
      'DATABASE_URL is set: back PostgreSQL up with pg_dump (docs/operations.md, "Backups").',
    );
    process.exit(1);
  }
  const into = process.argv[2] ?? config.backups.dir;
  const { dir, manifest } = await takeBackup({
    dataDir: config.dataDir,
    into,
    images: config.s3 === undefined,
  });
  const images = manifest.files.length - 1;
  console.log(
    `Backup written to ${dir}: ${manifest.counts.products ?? 0} products, ${manifest.counts.users ?? 0} accounts, ${images} image files.`,
  );
  if (config.s3) console.log('Images are in S3: back the bucket up as docs/operations.md says.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

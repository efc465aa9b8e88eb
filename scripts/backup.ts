/**
 * `npm run backup [folder]`: a consistent copy of the embedded database, the images and the
 * generated secret, taken while the server runs, into the folder (BACKUP_DIR, else
 * DATA_DIR/backups). Reads the server's environment (DATA_DIR, DATABASE_URL, S3_BUCKET,
 * APP_SECRET). On PostgreSQL it says to use pg_dump.
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
    appSecret: config.appSecret,
  });
  const names = manifest.files.map((file) => file.name);
  const images = names.filter((name) => name.startsWith('images/')).length;
  console.log(
    `Backup written to ${dir}: ${manifest.counts.products ?? 0} products, ${manifest.counts.users ?? 0} accounts, ${images} image files.`,
  );
  if (names.includes('secret.key')) {
    console.log(
      'It holds the generated secret (secret.key): keep the backup as private as the data.',
    );
  } else {
    // Without it two-factor codes are refused and recovery codes do not match.
    console.log(
      'It holds no secret: the restored server must be given the same APP_SECRET as this one.',
    );
  }
  if (config.s3) console.log('Images are in S3: back the bucket up as docs/operations.md says.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

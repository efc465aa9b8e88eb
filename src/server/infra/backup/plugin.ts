import fp from 'fastify-plugin';
import { newestBackupAt, pruneBackups, takeBackup } from './backups.js';

/** How often the job looks whether a backup is due: a server restarted daily still takes one. */
const LOOK_EVERY_MS = 60 * 60 * 1000;
/** The first look waits this long, clear of the start-up's own work. */
const FIRST_LOOK_AFTER_MS = 60 * 1000;

/**
 * The server's own backups of the embedded database (and the images under DATA_DIR, and the
 * secret it generated there when it runs without APP_SECRET), an interval
 * job of the background runner: each look takes one when the newest in BACKUP_DIR is older than
 * BACKUP_INTERVAL_HOURS, then keeps the newest BACKUP_KEEP. Nothing on PostgreSQL (pg_dump backs
 * it up) or with BACKUP_KEEP=0.
 */
export const backupsPlugin = fp(
  (app, _options, done) => {
    const { config, clock } = app;
    const { dir, keep, intervalMs } = config.backups;
    if (app.database.dialect === 'sqlite' && keep > 0) {
      app.runner.every({
        name: 'backups',
        everyMs: Math.min(intervalMs, LOOK_EVERY_MS),
        firstAfterMs: FIRST_LOOK_AFTER_MS,
        run: async () => {
          const newest = await newestBackupAt(dir);
          const now = clock.now();
          if (newest !== undefined && now - newest < intervalMs) return;
          const { dir: taken } = await takeBackup({
            dataDir: config.dataDir,
            into: dir,
            now: new Date(now),
            images: config.s3 === undefined,
            appSecret: config.appSecret,
          });
          await pruneBackups(dir, keep, now);
          app.log.info({ backup: taken }, 'backup taken');
        },
      });
    }
    done();
  },
  { name: 'backups', dependencies: ['settings', 'database', 'runner'] },
);

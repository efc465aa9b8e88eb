import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Database from 'better-sqlite3';

/** The embedded database's file under DATA_DIR, and the images' folder beside it. */
const DATABASE_FILE = 'stockroom.db';
const IMAGES = 'images';
/** The secret a server started without APP_SECRET generates into DATA_DIR (app-secret.ts). */
const SECRET_FILE = 'secret.key';
const MANIFEST = 'manifest.json';
/** A backup's folder: `stockroom-<time>`, so that names sort by age. */
const PREFIX = 'stockroom-';
const UNFINISHED = '.partial';
/** An unfinished backup this old is one whose process died: none takes a day. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

interface BackupFile {
  /** The path inside the backup, with forward slashes. */
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  createdAt: string;
  /** Rows of each table of the database copy. */
  counts: Record<string, number>;
  files: BackupFile[];
}

async function sha256Of(file: string) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under a folder, as paths relative to it; none when it does not exist. */
async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const found: string[] = [];
  for (const entry of entries) {
    const name = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(root, name)));
    else if (entry.isFile()) found.push(name);
  }
  return found;
}

/**
 * better-sqlite3, loaded when a backup runs: a server on PostgreSQL never loads it (the
 * lazy-modules test holds it to that).
 */
const loadSqlite = async () => (await import('better-sqlite3')).default;

async function countRows(databaseFile: string): Promise<Record<string, number>> {
  const SQLite = await loadSqlite();
  const db = new SQLite(databaseFile, { readonly: true });
  try {
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .pluck()
      .all() as string[];
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const quoted = `"${table.replaceAll('"', '""')}"`;
      counts[table] = db.prepare(`select count(*) from ${quoted}`).pluck().get() as number;
    }
    return counts;
  } finally {
    db.close();
  }
}

export interface BackupOptions {
  dataDir: string;
  /** The folder the backup's own folder goes in. */
  into: string;
  now?: Date;
  /** Also copy DATA_DIR/images (false when images live in S3). */
  images?: boolean;
  /**
   * The secret the server runs with, when known (APP_SECRET as given, or as the server resolved
   * it). DATA_DIR/secret.key goes in the backup when it holds that secret, or when none is given
   * (a server started without APP_SECRET reads the file); one set in the environment does not,
   * and the restored server needs the same APP_SECRET.
   */
  appSecret?: string | undefined;
}

/**
 * The generated secret, when it is the server's: the TOTP secrets are sealed with it and the
 * recovery codes hashed with it, so a restore without it locks every two-factor account out.
 */
async function serversSecretFile(dataDir: string, appSecret: string | undefined) {
  const kept = await readFile(path.join(dataDir, SECRET_FILE), 'utf8').catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (kept === undefined) return undefined;
  return appSecret === undefined || kept.trim() === appSecret ? kept : undefined;
}

/** Writes a secret for its owner's eyes only (a file that was there is replaced whole). */
async function writeSecret(file: string, content: string) {
  const temp = `${file}.restoring`;
  await rm(temp, { force: true });
  await writeFile(temp, content, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
}

/**
 * A consistent copy of the embedded database, the images and the generated secret (when the
 * server uses it), while the server runs: SQLite's online backup API copies the database as of
 * one moment (writers go on meanwhile), then the image files are copied. A picture is never
 * rewritten (a new upload gets a new name) and a deleted product's picture stays for days, so
 * every picture the copy refers to is there. The manifest lists each table's rows and each file's
 * size and SHA-256, which a restore checks. The folder gets its final name only once complete.
 */
export async function takeBackup({
  dataDir,
  into,
  now = new Date(),
  images = true,
  appSecret,
}: BackupOptions) {
  const name = `${PREFIX}${now.toISOString().replaceAll(':', '-')}`;
  const final = path.join(into, name);
  const partial = `${final}${UNFINISHED}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const file = path.join(dataDir, DATABASE_FILE);
    await stat(file).catch(() => {
      throw new Error(`No database at ${file}: is DATA_DIR the server's?`);
    });
    const SQLite = await loadSqlite();
    const source = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      // The online backup starts over whenever another connection writes, so under a server's
      // steady writes it never finished. A read transaction held through it pins one snapshot
      // (the database is in WAL mode: writers go on) and the copy is of that moment.
      source.exec('begin');
      source.prepare('select count(*) from sqlite_master').get();
      await source.backup(path.join(partial, DATABASE_FILE));
      source.exec('commit');
    } finally {
      source.close();
    }
    await selfContained(path.join(partial, DATABASE_FILE));
    const names = [DATABASE_FILE];
    const secret = await serversSecretFile(dataDir, appSecret);
    if (secret !== undefined) {
      await writeSecret(path.join(partial, SECRET_FILE), secret);
      names.push(SECRET_FILE);
    }
    if (images) {
      for (const file of await filesUnder(path.join(dataDir, IMAGES))) {
        // A picture still being written has a temporary name: it is no product's yet.
        if (file.endsWith('.tmp')) continue;
        const target = path.join(partial, IMAGES, file);
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(path.join(dataDir, IMAGES, file), target);
        names.push(`${IMAGES}/${file}`);
      }
    }
    const files: BackupFile[] = [];
    for (const file of names) {
      const full = path.join(partial, file);
      files.push({ name: file, bytes: (await stat(full)).size, sha256: await sha256Of(full) });
    }
    const manifest: Manifest = {
      format: 1,
      createdAt: now.toISOString(),
      counts: await countRows(path.join(partial, DATABASE_FILE)),
      files,
    };
    await writeFile(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, final);
    return { dir: final, manifest };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The copy in WAL mode, as its source is, would leave a -wal and a -shm file beside it the first
 * time it is opened (the row counts below, a check by hand): in rollback mode it is one file. The
 * server puts it back in WAL mode when it opens it.
 */
async function selfContained(databaseFile: string) {
  const SQLite = await loadSqlite();
  const db = new SQLite(databaseFile, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** When a backup folder's backup began, from its name. */
function startedAt(entry: string): number | undefined {
  const iso = entry
    .slice(PREFIX.length)
    .replace(UNFINISHED, '')
    .replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3');
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : at;
}

const isComplete = (entry: string) => entry.startsWith(PREFIX) && !entry.endsWith(UNFINISHED);

/** When the newest complete backup in `into` was taken, if there is one. */
export async function newestBackupAt(into: string): Promise<number | undefined> {
  const entries = await readdir(into).catch(() => [] as string[]);
  const newest = entries.filter(isComplete).sort().at(-1);
  return newest === undefined ? undefined : startedAt(newest);
}

/**
 * Keeps the newest `keep` backups in `into` and removes the older ones, and the unfinished ones
 * begun over a day before `now` (a process that died mid-backup left them). A younger one may be
 * a backup another process is still writing (`npm run backup` beside the server's own).
 */
export async function pruneBackups(
  into: string,
  keep: number,
  now = Date.now(),
): Promise<string[]> {
  const entries = await readdir(into).catch(() => [] as string[]);
  const complete = entries.filter(isComplete).sort();
  const old = complete.slice(0, Math.max(0, complete.length - keep));
  const abandoned = entries.filter((entry) => {
    if (!entry.startsWith(PREFIX) || !entry.endsWith(UNFINISHED)) return false;
    const began = startedAt(entry);
    return began !== undefined && now - began > ABANDONED_AFTER_MS;
  });
  const removed = [...old, ...abandoned.sort()];
  for (const entry of removed) await rm(path.join(into, entry), { recursive: true, force: true });
  return removed;
}

/**
 * Puts a backup back into DATA_DIR, on a stopped server: checks every file against the manifest
 * first (nothing changes when one differs), then replaces the database (its WAL too), the images
 * folder and the generated secret (when the backup holds it; else the restored server needs the
 * APP_SECRET it ran with).
 */
/**
 * A server with the database open would go on writing to the file a restore replaces, and lose its
 * -wal: SQLite grants an exclusive lock only when no other connection has the file open, idle or not.
 */
async function refuseWhileOpen(database: string) {
  if (!existsSync(database)) return;
  // Loaded here: a server on PostgreSQL, which takes backups, never loads the SQLite driver.
  const { default: Sqlite } = await import('better-sqlite3');
  let probe: Database.Database | undefined;
  try {
    probe = new Sqlite(database, { fileMustExist: true, timeout: 0 });
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    // A file that is not a database at all is what a restore is for.
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      throw new Error(`${database} is open in a running server: stop it, then restore`);
    }
  } finally {
    probe?.close();
  }
}

export async function restoreBackup(backupDir: string, dataDir: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(backupDir, MANIFEST), 'utf8')) as Manifest;
  for (const file of manifest.files) {
    const full = path.join(backupDir, file.name);
    if ((await sha256Of(full)) !== file.sha256) {
      throw new Error(`${file.name} does not match the backup's manifest: the backup is damaged`);
    }
  }
  await mkdir(dataDir, { recursive: true });
  const database = path.join(dataDir, DATABASE_FILE);
  await refuseWhileOpen(database);
  await copyFile(path.join(backupDir, DATABASE_FILE), `${database}.restoring`);
  for (const suffix of ['-wal', '-shm']) await rm(`${database}${suffix}`, { force: true });
  await rename(`${database}.restoring`, database);
  if (manifest.files.some((file) => file.name === SECRET_FILE)) {
    const secret = await readFile(path.join(backupDir, SECRET_FILE), 'utf8');
    await writeSecret(path.join(dataDir, SECRET_FILE), secret);
  }
  const images = manifest.files.filter((file) => file.name.startsWith(`${IMAGES}/`));
  if (images.length > 0) {
    await rm(path.join(dataDir, IMAGES), { recursive: true, force: true });
    for (const file of images) {
      const target = path.join(dataDir, file.name);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(path.join(backupDir, file.name), target);
    }
  }
  return manifest;
}

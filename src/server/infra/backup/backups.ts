import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The embedded database's file under DATA_DIR, and the images' folder beside it. */
const DATABASE_FILE = 'stockroom.db';
const IMAGES = 'images';
const MANIFEST = 'manifest.json';
/** A backup's folder: `stockroom-<time>`, so that names sort by age. */
const PREFIX = 'stockroom-';

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
}

/**
 * A consistent copy of the embedded database and the images, while the server runs: SQLite's
 * online backup API copies the database as of one moment (writers go on meanwhile), then the
 * image files are copied. A picture is never rewritten (a new upload gets a new name) and a
 * deleted product's picture stays for days, so every picture the copy refers to is there. The
 * manifest lists each table's rows and each file's size and SHA-256, which a restore checks. The
 * folder gets its final name only once complete.
 */
export async function takeBackup({
  dataDir,
  into,
  now = new Date(),
  images = true,
}: BackupOptions) {
  const name = `${PREFIX}${now.toISOString().replaceAll(':', '-')}`;
  const final = path.join(into, name);
  const partial = `${final}.partial`;
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
    const names = [DATABASE_FILE];
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

/** When the newest complete backup in `into` was taken, if there is one. */
export async function newestBackupAt(into: string): Promise<number | undefined> {
  const entries = await readdir(into).catch(() => [] as string[]);
  const newest = entries
    .filter((entry) => entry.startsWith(PREFIX) && !entry.endsWith('.partial'))
    .sort()
    .at(-1);
  if (!newest) return undefined;
  const iso = newest.slice(PREFIX.length).replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3');
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : at;
}

/** Keeps the newest `keep` backups in `into` and removes the older ones (and unfinished ones). */
export async function pruneBackups(into: string, keep: number): Promise<string[]> {
  const entries = await readdir(into).catch(() => [] as string[]);
  const complete = entries.filter(
    (entry) => entry.startsWith(PREFIX) && !entry.endsWith('.partial'),
  );
  const old = complete.sort().slice(0, Math.max(0, complete.length - keep));
  for (const entry of old) await rm(path.join(into, entry), { recursive: true, force: true });
  return old;
}

/**
 * Puts a backup back into DATA_DIR, on a stopped server: checks every file against the manifest
 * first (nothing changes when one differs), then replaces the database (its WAL too) and the
 * images folder.
 */
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
  await copyFile(path.join(backupDir, DATABASE_FILE), `${database}.restoring`);
  for (const suffix of ['-wal', '-shm']) await rm(`${database}${suffix}`, { force: true });
  await rename(`${database}.restoring`, database);
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

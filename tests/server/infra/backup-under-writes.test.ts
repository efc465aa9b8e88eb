import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takeBackup } from '../../../src/server/infra/backup/backups.js';
import { tempDir } from '../support/temp-dirs.js';

const ROWS = 100_000;

/**
 * SQLite's online backup starts over whenever another connection writes the database, so a server
 * that keeps writing (a stock change every few milliseconds) must not keep its backup from ever
 * finishing: the copy is of the moment it began, whatever is written meanwhile.
 */
describe('a backup of a database that keeps being written', () => {
  it('finishes with the rows of the moment it began', { timeout: 60_000 }, async () => {
    const dataDir = await tempDir();
    const into = await tempDir();
    const writer = new Database(path.join(dataDir, 'stockroom.db'));
    writer.pragma('journal_mode = WAL');
    writer.exec('create table rows (id integer primary key, body text not null)');
    const insert = writer.prepare('insert into rows (body) values (?)');
    // Some 25 megabytes: the copy takes many steps, each a chance for a write to land between two.
    writer.transaction(() => {
      for (let i = 0; i < ROWS; i += 1) insert.run('x'.repeat(200));
    })();
    const writes = setInterval(() => insert.run('written during the backup'), 1);
    try {
      const gaveUp = new Promise<'gave up'>((resolve) => setTimeout(resolve, 20_000, 'gave up'));
      const taken = await Promise.race([takeBackup({ dataDir, into, images: false }), gaveUp]);
      expect(taken).not.toBe('gave up');
      const { manifest } = taken as Awaited<ReturnType<typeof takeBackup>>;
      expect(manifest.counts.rows).toBeGreaterThanOrEqual(ROWS);
      // Writes went on until now: the copy stopped at its start, not at the last of them.
      expect(writer.prepare('select count(*) from rows').pluck().get()).toBeGreaterThan(
        manifest.counts.rows!,
      );
    } finally {
      clearInterval(writes);
      writer.close();
    }
  });
});

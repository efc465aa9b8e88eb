import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statementCachingConnection } from '../../../../src/server/infra/db/sqlite-connection.js';
import { tempDir } from '../../support/temp-dirs.js';

/**
 * A checkpoint is asked for only by a commit that changed rows: the migration check at every
 * start commits without changing any, and must not start the checkpoint worker.
 */
describe('checkpoint requests', () => {
  it('come from commits that changed rows, not from those that changed none', async () => {
    const file = new Database(path.join(await tempDir(), 'db.sqlite'));
    let requests = 0;
    const connection = statementCachingConnection(file, () => (requests += 1));
    connection.prepare('create table t (n integer)').run();
    const version = connection.contentVersion();

    connection.noteCommitted();
    expect(requests).toBe(0);
    // Reads beside a commit still count it as a change, rows or not.
    expect(connection.contentVersion()).not.toBe(version);

    connection.prepare('insert into t (n) values (1)').run();
    connection.noteCommitted();
    expect(requests).toBe(1);

    connection.prepare('update t set n = 1 where n = 2').run();
    connection.noteCommitted();
    expect(requests).toBe(1);
    connection.close();
  });
});

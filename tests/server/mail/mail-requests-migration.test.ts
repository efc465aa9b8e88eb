import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/index.js';
import { migrate, migrations, type MigrationDialect } from '../../../src/server/db/migrate.js';
import { freshPostgresDatabase } from '../support/build.js';

/** A database as it was before migration 007, with mails the old outbox rendered when queued. */
describe('migration 007 on an outbox that already has mail', async () => {
  const dialect: MigrationDialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-migration-'));
  const postgres = process.env.TEST_DATABASE_URL
    ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  const db = new Kysely<Database>({
    dialect: postgres
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 2 }) })
      : new SqliteDialect({ database: new SQLite(path.join(dataDir, 'old.db')) }),
  });
  afterAll(async () => {
    await db.destroy();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const before = migrations.findIndex((m) => m.name === '007_mail_requests');
  await sql`create table schema_migrations (name text primary key, applied_at text not null)`.execute(
    db,
  );
  for (const migration of migrations.slice(0, before)) {
    await migration.up(db as unknown as Kysely<unknown>, dialect);
    await sql`insert into schema_migrations values (${migration.name}, 'then')`.execute(db);
  }
  const now = Date.now();
  const old = (id: string, text: string, createdAt: number, sentAt: number | null) =>
    sql`insert into outbox (id, recipient, subject, text_body, html_body, attempts, next_attempt_at,
          locked_until, sent_at, last_error, created_at)
        values (${id}, 'old@example.com', 'Subject', ${text}, ${`<p>${text}</p>`}, 1, ${createdAt},
          null, ${sentAt}, null, ${createdAt})`.execute(db);
  await old('sent-code', 'Your code: 123456', now - 3_600_000, now - 3_600_000);
  await old('stale-code', 'Your code: 234567', now - 11 * 60_000, null);
  await old('fresh-code', 'Your code: 345678', now - 60_000, null);
  await old('notice', 'Your password was changed', now - 3_600_000, null);
  await migrate(db as unknown as Kysely<unknown>, dialect);
  const row = (id: string) =>
    db
      .selectFrom('outbox')
      .select(['kind', 'closed_at', 'outcome', 'text_body', 'html_body'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('closes the sent rows and wipes their bodies, codes included', async () => {
    expect(await row('sent-code')).toEqual({
      kind: 'notice',
      closed_at: now - 3_600_000,
      outcome: 'sent',
      text_body: '',
      html_body: '',
    });
  });

  it('closes unsent code mails whose code has expired, without their body', async () => {
    expect(await row('stale-code')).toMatchObject({ outcome: 'expired', text_body: '' });
  });

  it('leaves unsent mails that are still worth sending to the worker', async () => {
    expect(await row('fresh-code')).toMatchObject({
      kind: 'notice',
      closed_at: null,
      text_body: 'Your code: 345678',
    });
    expect(await row('notice')).toMatchObject({ kind: 'notice', closed_at: null, outcome: null });
  });
});

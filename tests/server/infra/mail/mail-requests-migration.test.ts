import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/server/infra/db/migrate.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../../support/legacy-database.js';

/** A database as it was before migration 007, with mails the old outbox rendered when queued. */
describe('migration 007 on an outbox that already has mail', async () => {
  const { db, drop } = await emptyDatabase();
  afterAll(drop);
  await migrateAsOldRunner(db, '007_mail_requests');
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
  const row = async (id: string) => {
    const found = await db
      .selectFrom('outbox')
      .select(['kind', 'closed_at', 'outcome', 'text_body', 'html_body'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // This connection is not the app's, whose driver reads PostgreSQL's bigint as a number.
    const closed = found.closed_at as number | string | null;
    return { ...found, closed_at: closed === null ? null : Number(closed) };
  };

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

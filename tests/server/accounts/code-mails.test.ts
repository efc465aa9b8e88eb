import { describe, expect, it, onTestFinished } from 'vitest';
import { CodeMails } from '../../../src/server/features/accounts/code-mails.js';
import {
  ClaimLost,
  type MailRequest,
  type PreparedMail,
} from '../../../src/server/infra/mail/mail-requests.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import type { MailRequestKind } from '../../../src/server/infra/db/schema-mail.js';
import { M } from '../../../src/shared/messages.js';
import { accounts, expectMessage, newEmail, userRow } from '../support/accounts.js';
import { build } from '../support/build.js';
import { codeIn } from '../support/inbox.js';

const MINUTE = 60_000;

describe('turning mail requests into mails at send time', async () => {
  const server = await build();
  const steps = accounts(server);
  const { db } = server.database;
  const { outbox } = server.app;
  const { appSecret, publicUrl } = server.config;
  const codeMails = new CodeMails(db, server.clock, appSecret, publicUrl);
  const confirmed = await steps.signedIn();
  const unconfirmed = await steps.signUp();
  await steps.inbox.fetch();

  /** A request row as the worker would see it, unclaimed. */
  async function requestFor(email: string, kind: MailRequestKind): Promise<MailRequest> {
    return reread(await outbox.request(db, email, kind));
  }
  async function reread(id: string): Promise<MailRequest> {
    const row = await db
      .selectFrom('outbox')
      .select([
        'id',
        'recipient',
        'kind',
        'attempts',
        'created_at',
        'counted_at',
        'code_id',
        'user_id',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { ...row, kind: row.kind as MailRequestKind };
  }
  const codeRow = (id: string) =>
    db.selectFrom('codes').selectAll().where('id', '=', id).executeTakeFirst();
  function mailOf(prepared: PreparedMail) {
    if (!('mail' in prepared)) throw new Error(`no mail: ${prepared.outcome}`);
    return prepared.mail;
  }
  const userCodes = async (email: string) => {
    const user = await userRow(server, email);
    return db.selectFrom('codes').select('id').where('user_id', '=', user!.id).execute();
  };

  it('an unknown address: no mail, nothing counted', async () => {
    const request = await requestFor(newEmail('nobody'), 'reset-code');
    expect(await codeMails.prepare(request)).toEqual({ outcome: 'no-account' });
    expect((await reread(request.id)).counted_at).toBeNull();
  });

  it('a confirmation code for a confirmed account does not apply', async () => {
    const request = await requestFor(confirmed.email, 'confirm-code');
    expect(await codeMails.prepare(request)).toEqual({ outcome: 'not-applicable' });
  });

  it('sign-up of a confirmed address: "you already have an account", no code, counted as confirm', async () => {
    server.clock.advance(MINUTE);
    const request = await requestFor(confirmed.email, 'signup');
    const prepared = await codeMails.prepare(request);
    expect(mailOf(prepared).subject).toBe('You already have a Stockroom account');
    expect(codeIn(mailOf(prepared))).toBeUndefined();
    expect(prepared).not.toHaveProperty('codeExpiresAt');
    expect(await reread(request.id)).toMatchObject({
      counted_at: server.clock.now(),
      code_id: null,
    });
  });

  it('a code request: a code issued now that only the mail holds; the row keeps its id', async () => {
    const request = await requestFor(confirmed.email, 'reset-code');
    const prepared = await codeMails.prepare(request);
    const code = codeIn(mailOf(prepared))!;
    expect(prepared).toMatchObject({ codeExpiresAt: server.clock.now() + 10 * MINUTE });
    const row = await reread(request.id);
    expect(row.counted_at).toBe(server.clock.now());
    expect(await codeRow(row.code_id!)).toMatchObject({ purpose: 'reset' });
    expect(JSON.stringify(await db.selectFrom('outbox').selectAll().execute())).not.toContain(code);
    expectMessage(await steps.validate(code, confirmed.email), 200, M.codeValid);
  });

  it('a retry gives the same code new digits; its expiry and wrong tries stay', async () => {
    server.clock.advance(MINUTE);
    const first = await requestFor(confirmed.email, 'reset-code');
    const oldCode = codeIn(mailOf(await codeMails.prepare(first)))!;
    const counted = await reread(first.id);
    await db
      .updateTable('codes')
      .set({ failed_attempts: 3 })
      .where('id', '=', counted.code_id!)
      .execute();
    const before = await codeRow(counted.code_id!);

    server.clock.advance(30_000);
    const newCode = codeIn(mailOf(await codeMails.prepare(counted)))!;
    expect(await codeRow(counted.code_id!)).toMatchObject({
      expires_at: before!.expires_at,
      failed_attempts: 3,
    });
    expect((await reread(first.id)).counted_at).toBe(counted.counted_at);
    expectMessage(await steps.validate(newCode, confirmed.email), 200, M.codeValid);
    if (newCode !== oldCode) {
      expectMessage(await steps.validate(oldCode, confirmed.email), 400, M.codeInvalid);
    }
  });

  it('a retry after the code was replaced is superseded; after it expired, expired', async () => {
    server.clock.advance(MINUTE);
    const first = await requestFor(confirmed.email, 'reset-code');
    await codeMails.prepare(first);
    server.clock.advance(MINUTE);
    const second = await requestFor(confirmed.email, 'reset-code');
    await codeMails.prepare(second);
    expect(await codeMails.prepare(await reread(first.id))).toEqual({ outcome: 'superseded' });

    server.clock.advance(10 * MINUTE);
    expect(await codeMails.prepare(await reread(second.id))).toEqual({ outcome: 'expired' });
  });

  it('a code request first reached 10 minutes late: expired, nothing counted, no code issued', async () => {
    server.clock.advance(MINUTE);
    const request = await requestFor(unconfirmed.email, 'confirm-code');
    const codesBefore = await userCodes(unconfirmed.email);
    server.clock.advance(10 * MINUTE);
    expect(await codeMails.prepare(request)).toEqual({ outcome: 'expired' });
    expect((await reread(request.id)).counted_at).toBeNull();
    expect(await userCodes(unconfirmed.email)).toEqual(codesBefore);
  });

  it('a claim another worker took over: it throws, and nothing is counted or issued', async () => {
    server.clock.advance(MINUTE);
    const request = await requestFor(unconfirmed.email, 'confirm-code');
    const codesBefore = await userCodes(unconfirmed.email);
    await expect(codeMails.prepare({ ...request, attempts: 7 })).rejects.toBeInstanceOf(ClaimLost);
    expect((await reread(request.id)).counted_at).toBeNull();
    expect(await userCodes(unconfirmed.email)).toEqual(codesBefore);
  });

  it('workers on several connections count one address in turn: 8 requests at once, 1 mail', async () => {
    server.clock.advance(MINUTE);
    // PostgreSQL: a second pool, as another process would have. (SQLite's writers are serialized by
    // BEGIN IMMEDIATE across processes; within one, a second handle would block the event loop.)
    const other =
      server.database.dialect === 'postgres' ? await openDatabase(server.config) : undefined;
    onTestFinished(() => other?.close());
    const otherMails = other
      ? new CodeMails(other.db, server.clock, appSecret, publicUrl)
      : codeMails;
    const email = confirmed.email;
    const requests = await Promise.all(
      Array.from({ length: 8 }, () => requestFor(email, 'signup')),
    );
    const prepared = await Promise.all(
      requests.map((request, i) => (i % 2 ? otherMails : codeMails).prepare(request)),
    );
    expect(prepared.filter((result) => 'mail' in result)).toHaveLength(1);
    expect(
      prepared.filter((result) => 'outcome' in result && result.outcome === 'over-budget'),
    ).toHaveLength(7);
  });
});

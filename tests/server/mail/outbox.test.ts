import { afterAll, describe, expect, it, vi } from 'vitest';
import { backoffMs } from '../../../src/server/mail/outbox.js';
import { M } from '../../../src/shared/messages.js';
import { accounts, expectMessage, newEmail, PASSWORD, userRow } from '../support/accounts.js';
import { build, type TestServer } from '../support/build.js';
import { SmtpInbox } from '../support/inbox.js';
import { freePort } from '../support/processes.js';
import { TestSmtpServer } from '../../support/smtp.js';

const outboxRows = (server: TestServer, email: string) =>
  server.database.db.selectFrom('outbox').selectAll().where('recipient', '=', email).execute();

/** A server whose SMTP_URL points at a loopback port where nothing listens (yet). */
async function buildWithSmtpDown() {
  const port = await freePort();
  const server = await build({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  const smtp = new TestSmtpServer();
  afterAll(() => smtp.stop());
  return { server, smtp, port, steps: accounts(server, new SmtpInbox(server, smtp)) };
}

describe('the outbox while the SMTP server is down', async () => {
  const { server, smtp, port, steps } = await buildWithSmtpDown();
  const { outbox } = server.app.deps;

  it('sign-up still answers 201; the mail is retried and arrives exactly once when SMTP is back', async () => {
    const { email } = await steps.signUp();

    expect(await outbox.deliverDue()).toBe(0);
    const [failed] = await outboxRows(server, email);
    expect(failed).toMatchObject({
      attempts: 1,
      sent_at: null,
      locked_until: null,
      next_attempt_at: server.clock.now() + backoffMs(1),
    });
    expect(failed!.last_error).toMatch(/ECONNREFUSED/);

    // Not due yet: no new attempt.
    expect(await outbox.deliverDue()).toBe(0);
    expect((await outboxRows(server, email))[0]).toMatchObject({ attempts: 1 });

    await smtp.start(port);
    expect(await outbox.deliverDue()).toBe(0);
    expect(smtp.mails).toHaveLength(0);

    server.clock.advance(backoffMs(1));
    expect(await outbox.deliverDue()).toBe(1);
    for (let i = 0; i < 3; i++) {
      server.clock.advance(60_000);
      expect(await outbox.deliverDue()).toBe(0);
    }
    expect(smtp.mailsTo(email)).toHaveLength(1);
    expect((await outboxRows(server, email))[0]).toMatchObject({
      attempts: 2,
      sent_at: server.clock.now() - 3 * 60_000,
      last_error: null,
    });

    // The code that waited in the outbox still confirms the account.
    expectMessage(await steps.confirmWith(smtp.codeFor(email), email), 200, M.accountConfirmed);
  });
});

describe('outbox retries', async () => {
  const { server, steps } = await buildWithSmtpDown();
  const { outbox } = server.app.deps;

  it('backs off 1 s, 2 s, 4 s … up to 10 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(11)).toBe(600_000);
    expect(backoffMs(30)).toBe(600_000);
  });

  it('gives up after 12 failed attempts', async () => {
    const { email } = await steps.signUp();
    for (let attempt = 1; attempt <= 14; attempt++) {
      await outbox.deliverDue();
      server.clock.advance(backoffMs(attempt));
    }
    const [row] = await outboxRows(server, email);
    expect(row).toMatchObject({ attempts: 12, sent_at: null });
  });
});

describe('the outbox commits with the change that needs it', async () => {
  const server = await build();
  const steps = accounts(server);
  const { outbox } = server.app.deps;

  it('a sign-up writes its user, code and mail together', async () => {
    const { email } = await steps.signUp();
    expect(await userRow(server, email)).toBeDefined();
    expect(await outboxRows(server, email)).toHaveLength(1);
  });

  it('a sign-up whose transaction fails leaves no user, no code and no mail', async () => {
    const email = newEmail('rolled-back');
    const enqueue = outbox.enqueue.bind(outbox);
    // The mail row is written, then the transaction fails after it.
    const spy = vi.spyOn(outbox, 'enqueue').mockImplementation(async (trx, message) => {
      await enqueue(trx, message);
      throw new Error('disk full at /var/lib/secret-path');
    });
    try {
      const res = await steps.api({
        url: '/api/auth/signup',
        body: { name: 'Nobody', email, password: PASSWORD, confirmPassword: PASSWORD },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: M.internal });
      expect(res.text).not.toContain('secret-path');
      expect(spy).toHaveBeenCalledOnce();
    } finally {
      spy.mockRestore();
    }
    expect(await userRow(server, email)).toBeUndefined();
    expect(await outboxRows(server, email)).toEqual([]);
    const codes = await server.database.db.selectFrom('codes').select('id').execute();
    expect(codes).toHaveLength(1); // the first test's only
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(email)).toEqual([]);
  });

  it('the local mailbox (no SMTP_URL) writes one JSON file per mail, with the code in its text', async () => {
    const { email } = await steps.signUp({ name: 'Local' });
    await steps.inbox.fetch();
    const mail = steps.inbox.lastMailTo(email);
    expect(mail).toMatchObject({
      to: email,
      from: 'Stockroom <no-reply@localhost>',
      subject: 'Confirm your Stockroom account',
      text: expect.stringMatching(/Your code: \d{6}/),
    });
    // Delivered once: a second run finds nothing due.
    expect(await outbox.deliverDue()).toBe(0);
  });
});

import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { backoffMs, RETRY_FOR_MS } from '../../../../src/server/infra/mail/outbox.js';
import { templates } from '../../../../src/server/infra/mail/templates.js';
import { M } from '../../../../src/shared/messages.js';
import { accounts, expectMessage, newEmail, PASSWORD, userRow } from '../../support/accounts.js';
import { anotherInstance, build, type TestServer } from '../../support/build.js';
import { SmtpInbox } from '../../support/inbox.js';
import { freePort } from '../../support/processes.js';
import { TestSmtpServer } from '../../../support/smtp.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

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

/** The next server process: another app on the same database, with its own mail transport. */
const nextProcess = (server: TestServer, smtpUrl: string) =>
  anotherInstance(server, { config: { ...server.config, smtpUrl } });

describe('the outbox while the SMTP server is down', async () => {
  const { server, smtp, port, steps } = await buildWithSmtpDown();
  const { outbox } = server.app;

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
  const { server, smtp, port, steps } = await buildWithSmtpDown();
  const { outbox } = server.app;

  it('backs off 1 s, 2 s, 4 s … up to 10 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(11)).toBe(600_000);
    expect(backoffMs(30)).toBe(600_000);
  });

  it('retries a notice with back-off capped at 10 minutes: still delivered after 2 hours of failures', async () => {
    const email = newEmail('notice');
    const { db } = server.database;
    await outbox.enqueue(db, templates.passwordChanged(server.config.publicUrl, email, 'Ada'));
    for (let waited = 0; waited < 2 * HOUR; waited += MINUTE) {
      await outbox.deliverDue();
      server.clock.advance(MINUTE);
    }
    const [row] = await outboxRows(server, email);
    expect(row).toMatchObject({ sent_at: null, closed_at: null });
    // 1 s, 2 s … 512 s, then every 10 minutes: about 21 tries in 2 hours, not one a minute.
    expect(row!.attempts).toBeGreaterThanOrEqual(18);
    expect(row!.attempts).toBeLessThanOrEqual(24);
    expect(row!.next_attempt_at - server.clock.now()).toBeLessThanOrEqual(10 * MINUTE);

    await smtp.start(port);
    server.clock.advance(10 * MINUTE);
    expect(await outbox.deliverDue()).toBe(1);
    expect(smtp.mailsTo(email).map((mail) => mail.subject)).toEqual([
      'Your Stockroom password was changed',
    ]);
    await smtp.stop();
  });

  it('closes a notice that failed for 3 days, with an error in the log, never silently', async () => {
    const email = newEmail('lost');
    const { db } = server.database;
    await outbox.enqueue(db, templates.passwordChanged(server.config.publicUrl, email, 'Ada'));
    const errors = vi.spyOn(server.app.log, 'error');
    try {
      for (let waited = 0; waited <= RETRY_FOR_MS; waited += HOUR) {
        await outbox.deliverDue();
        server.clock.advance(HOUR);
      }
      const [row] = await outboxRows(server, email);
      expect(row).toMatchObject({ sent_at: null, outcome: 'failed', text_body: '', html_body: '' });
      expect(row!.closed_at! - row!.created_at).toBeGreaterThanOrEqual(RETRY_FOR_MS - 10 * MINUTE);
      expect(row!.closed_at! - row!.created_at).toBeLessThanOrEqual(RETRY_FOR_MS);
      expect(row!.last_error).toMatch(/ECONNREFUSED/);
      expect(errors).toHaveBeenCalledOnce();
      expect(errors.mock.calls[0]![0]).toMatchObject({ mailId: row!.id });
    } finally {
      errors.mockRestore();
    }
  });

  it('retries a code mail only while its code lives, then closes it; a new request gets a new code', async () => {
    const { email } = await steps.signUp();
    for (let waited = 0; waited <= 11 * MINUTE; waited += 30_000) {
      await outbox.deliverDue();
      server.clock.advance(30_000);
    }
    const [row] = await outboxRows(server, email);
    expect(row).toMatchObject({ sent_at: null, outcome: 'expired' });
    expect(row!.closed_at! - row!.created_at).toBeLessThanOrEqual(10 * MINUTE);

    await smtp.start(port);
    expect(await outbox.deliverDue()).toBe(0);
    expectMessage(await steps.resend(email), 200, M.resendDone);
    expect(await outbox.deliverDue()).toBe(1);
    expect(smtp.mailsTo(email)).toHaveLength(1);
    expectMessage(await steps.confirmWith(smtp.codeFor(email), email), 200, M.accountConfirmed);
  });
});

describe('what the outbox keeps', async () => {
  const server = await build();
  const steps = accounts(server);
  const { outbox } = server.app;

  it('a sent row keeps no code and no body', async () => {
    const { email } = await steps.signUp();
    const code = await steps.codeFor(email);
    const [row] = await outboxRows(server, email);
    expect(row).toMatchObject({
      outcome: 'sent',
      subject: 'Confirm your Stockroom account',
      text_body: '',
      html_body: '',
    });
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it('a sent notice keeps its subject, not its body', async () => {
    const email = newEmail('notice');
    const notice = templates.emailChanged(server.config.publicUrl, email, 'Ada', {
      from: email,
      to: 'new@example.com',
    });
    await outbox.enqueue(server.database.db, notice);
    expect(await outbox.deliverDue()).toBe(1);
    expect((await outboxRows(server, email))[0]).toMatchObject({
      outcome: 'sent',
      subject: notice.subject,
      text_body: '',
      html_body: '',
    });
  });

  it('a code request that waited 10 minutes is not sent', async () => {
    const { email } = await steps.signUp();
    server.clock.advance(10 * MINUTE);
    expect(await outbox.deliverDue()).toBe(0);
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(email)).toEqual([]);
    expect((await outboxRows(server, email))[0]).toMatchObject({
      outcome: 'expired',
      counted_at: null,
      sent_at: null,
    });
  });
});

describe('mail survives the server process', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());
  // The first process's mail server accepts connections and never answers.
  const sockets: Socket[] = [];
  const blackHole = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => blackHole.close(() => resolve())));
  const { port } = blackHole.address() as { port: number };
  const first = await build({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  const steps = accounts(first, new SmtpInbox(first, smtp));
  const next = await nextProcess(first, smtp.url);

  it('a request written before the process stopped is delivered by the next one', async () => {
    const { email } = await steps.signUp();
    expect(await next.outbox.deliverDue()).toBe(1);
    expectMessage(await steps.confirmWith(smtp.codeFor(email), email), 200, M.accountConfirmed);
  });

  it('a worker that dies while sending: the next one sends a fresh code after the lease, and the first cannot undo it', async () => {
    const { email } = await steps.signUp();
    const dying = first.app.outbox.deliverDue();
    await expect.poll(() => sockets.length).toBeGreaterThan(0);
    // The first worker counted the request and issued a code that only its memory holds.
    expect((await outboxRows(first, email))[0]).toMatchObject({ attempts: 1, sent_at: null });
    expect(await next.outbox.deliverDue()).toBe(0);

    first.clock.advance(MINUTE);
    expect(await next.outbox.deliverDue()).toBe(1);
    for (const socket of sockets) socket.destroy();
    expect(await dying).toBe(0);

    const [row] = await outboxRows(first, email);
    expect(row).toMatchObject({ attempts: 2, outcome: 'sent', last_error: null });
    expect(smtp.mailsTo(email)).toHaveLength(1);
    expectMessage(await steps.confirmWith(smtp.codeFor(email), email), 200, M.accountConfirmed);
  });
});

describe('the outbox commits with the change that needs it', async () => {
  const server = await build();
  const steps = accounts(server);
  const { outbox } = server.app;

  it('a sign-up writes its user and its mail request together', async () => {
    const { email } = await steps.signUp();
    expect(await userRow(server, email)).toBeDefined();
    expect(await outboxRows(server, email)).toMatchObject([{ kind: 'signup', purpose: 'confirm' }]);
  });

  it('a sign-up whose transaction fails leaves no user, no code and no mail', async () => {
    const email = newEmail('rolled-back');
    const request = outbox.request.bind(outbox);
    // The request row is written, then the transaction fails after it.
    const spy = vi.spyOn(outbox, 'request').mockImplementation(async (trx, to, kind) => {
      await request(trx, to, kind);
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
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(email)).toEqual([]);
    const codes = await server.database.db.selectFrom('codes').select('id').execute();
    expect(codes).toHaveLength(1); // the first test's only
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

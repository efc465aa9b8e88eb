import { afterAll, describe, expect, it } from 'vitest';
import { M } from '../../../../src/shared/messages.js';
import {
  accountSteps,
  expectMessage,
  fingerprint,
  httpClient,
  injectClient,
  newEmail,
  PASSWORD,
  userRow,
  type ApiResponse,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { LocalInbox, SmtpInbox } from '../../support/inbox.js';
import { freePort, startEntry, waitForOk } from '../../support/processes.js';
import { TestSmtpServer } from '../../../support/smtp.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every path that mails an address shares one budget per address and purpose: at most one mail a
 * minute and five an hour. Mails are counted where they really arrive: a loopback SMTP server.
 */
describe('the mail budget per address', async () => {
  const smtp = await new TestSmtpServer().start();
  afterAll(() => smtp.stop());
  const server = await build({ env: { SMTP_URL: smtp.url } });
  const steps = accountSteps(injectClient(server.app), new SmtpInbox(server, smtp));

  const signUp = (email: string, name = 'Ada', password = PASSWORD) =>
    steps.api({
      url: '/api/auth/signup',
      body: { name, email, password, confirmPassword: password },
    });
  /** Delivers what is due, then counts what arrived for this address. */
  async function delivered(email: string, subject?: RegExp) {
    await steps.inbox.fetch();
    return smtp.mailsTo(email).filter((mail) => !subject || subject.test(mail.subject)).length;
  }
  const expectAllAlike = (answers: ApiResponse[], status: number, message: string) => {
    expectMessage(answers[0]!, status, message);
    for (const res of answers) expect(fingerprint(res)).toEqual(fingerprint(answers[0]!));
  };

  it('10 sign-ups one after another for a new address: 1 mail; the first password and name stay', async () => {
    const email = newEmail('flood');
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 10; i += 1)
      answers.push(await signUp(email, `Name ${i}`, `password-${i}-A`));
    expectAllAlike(answers, 201, M.signupDone);
    expect(await delivered(email)).toBe(1);

    await steps.confirm(email);
    expectMessage(await steps.loginWith(email, 'password-1-A'), 400, M.badCredentials);
    const token = await steps.login(email, 'password-0-A');
    expect((await steps.user(token)).body.user).toMatchObject({ name: 'Name 0' });
  });

  it('10 sign-ups in parallel for a new address: 1 mail; one of them made the account, the rest changed nothing', async () => {
    const email = newEmail('parallel');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signUp(email, `Name ${i}`, `password-${i}-A`)),
    );
    expectAllAlike(answers, 201, M.signupDone);
    expect(await delivered(email)).toBe(1);

    await steps.confirm(email);
    const { name } = (await userRow(server, email))!;
    const winner = Number(/^Name (\d)$/.exec(name)![1]);
    for (let i = 0; i < 10; i += 1) {
      const res = await steps.loginWith(email, `password-${i}-A`);
      expect([i, res.status]).toEqual([i, i === winner ? 200 : 400]);
    }
  });

  it('sign-up, resend, login while unconfirmed and sign-up again within a minute: 1 mail; a resend 60 s after the sign-up: a 2nd', async () => {
    const account = await steps.signUp();
    server.clock.advance(10_000);
    expectMessage(await steps.resend(account.email), 200, M.resendDone);
    server.clock.advance(10_000);
    expectMessage(await steps.loginWith(account.email, account.password), 403, M.notConfirmed);
    server.clock.advance(10_000);
    expectMessage(await signUp(account.email), 201, M.signupDone);
    server.clock.advance(29_999);
    expectMessage(await steps.resend(account.email), 200, M.resendDone);
    expect(await delivered(account.email)).toBe(1);

    server.clock.advance(1);
    expectMessage(await steps.resend(account.email), 200, M.resendDone);
    expect(await delivered(account.email)).toBe(2);
    // The newest code is the live one.
    await steps.confirm(account.email);
  });

  it('at most 5 code mails an hour; the 6th is not sent, and the answers do not show it', async () => {
    const account = await steps.signUp();
    const sent = await steps.resend(newEmail('unknown'));
    const answers: ApiResponse[] = [];
    for (let i = 2; i <= 6; i += 1) {
      server.clock.advance(MINUTE + 1);
      answers.push(await steps.resend(account.email));
      expect([i, await delivered(account.email)]).toEqual([i, Math.min(i, 5)]);
    }
    for (const res of answers) expect(fingerprint(res)).toEqual(fingerprint(sent));

    // An hour after the first mail, one more may go.
    server.clock.advance(HOUR - 5 * (MINUTE + 1));
    expectMessage(await steps.resend(account.email), 200, M.resendDone);
    expect(await delivered(account.email)).toBe(6);
    await steps.confirm(account.email);
  });

  it('forgot-password has its own budget beside the confirmation codes', async () => {
    const account = await steps.signUp();
    expectMessage(await steps.forgot(account.email), 200, M.forgotDone);
    expectMessage(await steps.forgot(account.email), 200, M.forgotDone);
    expect(await delivered(account.email, /Confirm/)).toBe(1);
    expect(await delivered(account.email, /Reset/)).toBe(1);
  });

  it('"you already have an account" mails count in the confirmation budget', async () => {
    const account = await steps.signedIn();
    server.clock.advance(MINUTE);
    for (let i = 0; i < 3; i += 1) expectMessage(await signUp(account.email), 201, M.signupDone);
    expect(await delivered(account.email, /already have/)).toBe(1);
  });

  it('20 forgot-passwords at once for one address: 1 mail', async () => {
    const account = await steps.signedIn();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => steps.forgot(account.email)),
    );
    expectAllAlike(answers, 200, M.forgotDone);
    expect(await delivered(account.email, /Reset/)).toBe(1);
  });

  it('a request for an unknown address mails nothing and costs no budget of anyone', async () => {
    const email = newEmail('nobody');
    expectMessage(await steps.forgot(email), 200, M.forgotDone);
    expectMessage(await steps.resend(email), 200, M.resendDone);
    expect(await delivered(email)).toBe(0);
  });
});

describe('the mail budget across server processes', async () => {
  const smtp = await new TestSmtpServer().start();
  const server = await build();
  const steps = accountSteps(injectClient(server.app), new LocalInbox(server));
  // Two real server processes on the database the test server migrated, each with its mail worker.
  const ports = [await freePort(), await freePort()];
  const entries = ports.map((port) =>
    startEntry({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: server.dataDir,
      ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}),
      APP_SECRET: 'test-secret-that-is-at-least-32-characters-long',
      SMTP_URL: smtp.url,
      RATE_LIMIT_SENSITIVE: '1000',
      LOG_LEVEL: 'warn',
    }),
  );
  afterAll(async () => {
    for (const entry of entries) entry.child.kill('SIGTERM');
    await Promise.all(entries.map((entry) => entry.exited));
    await smtp.stop();
  });
  await Promise.all(
    entries.map((entry, i) => waitForOk(`http://127.0.0.1:${ports[i]}/api/health`, 45_000, entry)),
  );

  it('20 forgot-passwords at once, spread over two processes: 1 mail', async () => {
    const account = await steps.signedIn();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        httpClient(`http://127.0.0.1:${ports[i % 2]}`)({
          url: '/api/auth/forgot-password',
          body: { email: account.email },
        }),
      ),
    );
    expectMessage(answers[0]!, 200, M.forgotDone);
    for (const res of answers) expect(fingerprint(res)).toEqual(fingerprint(answers[0]!));
    await expect.poll(() => smtp.mailsTo(account.email).length, { timeout: 10_000 }).toBe(1);
    // Both workers poll every 2 s: give a second mail every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.mailsTo(account.email)).toHaveLength(1);
  });
});

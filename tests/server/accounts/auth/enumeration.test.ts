import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_RESEND_INTERVAL_MS } from '../../../../src/server/features/accounts/codes.js';
import { M } from '../../../../src/shared/messages.js';
import {
  accounts,
  fingerprint,
  newEmail,
  NEW_PASSWORD,
  PASSWORD,
  userRow,
  type Account,
  type ApiResponse,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { codeIn } from '../../support/inbox.js';

describe('answers that do not tell whether an e-mail is registered', async () => {
  const server = await build();
  const steps = accounts(server);
  let unconfirmed: Account;
  let confirmed: Account;
  const emailOf = (kind: 'unconfirmed' | 'confirmed') =>
    kind === 'unconfirmed' ? unconfirmed.email : confirmed.email;

  beforeAll(async () => {
    unconfirmed = await steps.signUp({ name: 'Pending' });
    confirmed = await steps.signedIn({ name: 'Member' });
    await steps.inbox.fetch();
    server.clock.advance(CODE_RESEND_INTERVAL_MS);
  });

  /**
   * Sends one request per kind of address; all must look the same byte for byte. Returns the
   * answer and the unknown address used.
   */
  async function expectSameAnswers(send: (email: string) => Promise<ApiResponse>) {
    const unknown = newEmail('unknown');
    const answer = await send(unknown);
    expect(fingerprint(await send(unconfirmed.email))).toEqual(fingerprint(answer));
    expect(fingerprint(await send(confirmed.email))).toEqual(fingerprint(answer));
    await steps.inbox.fetch();
    return { answer, unknown };
  }

  const newMails = (email: string, before: number) => steps.inbox.mailsTo(email).slice(before);
  const counts = () => ({
    unconfirmed: steps.inbox.mailsTo(unconfirmed.email).length,
    confirmed: steps.inbox.mailsTo(confirmed.email).length,
  });

  it('sign-up: 201 and the same message for each; the confirmed owner is told, not sent a code', async () => {
    const before = counts();
    const pendingBefore = await userRow(server, unconfirmed.email);
    const { answer } = await expectSameAnswers((email) =>
      steps.api({
        url: '/api/auth/signup',
        body: { name: 'Intruder', email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ message: M.signupDone });

    const [told] = newMails(confirmed.email, before.confirmed);
    expect(told?.subject).toBe('You already have a Stockroom account');
    expect(codeIn(told!)).toBeUndefined();
    // The existing account is untouched: same password, same name.
    const token = await steps.login(confirmed.email, PASSWORD);
    expect((await steps.user(token)).body.user).toMatchObject({ name: 'Member' });

    // The unconfirmed address gets a fresh code, and its account keeps its first name and password.
    expect(codeIn(newMails(unconfirmed.email, before.unconfirmed)[0]!)).toMatch(/^\d{6}$/);
    expect(await userRow(server, unconfirmed.email)).toEqual(pendingBefore);
  });

  /** Same 200 for every kind of address; exactly the listed kinds got a new mail with `subject`. */
  async function expectMailedOnlyTo(
    send: (email: string) => Promise<ApiResponse>,
    message: string,
    mailed: ('unconfirmed' | 'confirmed')[],
    subject: string,
  ) {
    server.clock.advance(CODE_RESEND_INTERVAL_MS);
    const before = counts();
    const { answer, unknown } = await expectSameAnswers(send);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message });
    for (const kind of ['unconfirmed', 'confirmed'] as const) {
      const subjects = newMails(emailOf(kind), before[kind]).map((mail) => mail.subject);
      expect(subjects).toEqual(mailed.includes(kind) ? [subject] : []);
    }
    expect(steps.inbox.mailsTo(unknown)).toEqual([]);
  }

  it('forgot-password: the same 200 for each; only registered addresses get a code', async () => {
    await expectMailedOnlyTo(
      steps.forgot,
      M.forgotDone,
      ['unconfirmed', 'confirmed'],
      'Reset your Stockroom password',
    );
  });

  it('resend-confirmation: the same 200 for each; only the unconfirmed address gets a code', async () => {
    await expectMailedOnlyTo(
      steps.resend,
      M.resendDone,
      ['unconfirmed'],
      'Confirm your Stockroom account',
    );
  });

  it('login: an unknown e-mail and a wrong password get the same 400', async () => {
    const { answer, unknown } = await expectSameAnswers((email) =>
      steps.loginWith(email, 'wrong-Password-9'),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: M.badCredentials });
    expect(steps.inbox.mailsTo(unknown)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { CODE_RESEND_INTERVAL_MS } from '../../../../src/server/features/accounts/codes.js';
import { M, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  badCodeBodies,
  expectInvalid,
  expectMessage,
  otherCode,
  userRow,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

describe('POST /api/auth/confirm-account and /api/auth/resend-confirmation', async () => {
  const server = await build();
  const steps = accounts(server);

  it('confirms with the code and the e-mail', async () => {
    const account = await steps.signUp();
    const res = await steps.confirmWith(await steps.codeFor(account.email), account.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.accountConfirmed });
    expect(await userRow(server, account.email)).toMatchObject({ confirmed: 1 });
    await steps.login(account.email, account.password);
  });

  it('confirms with the bare code (without the e-mail)', async () => {
    const account = await steps.signUp();
    expectMessage(
      await steps.confirmWith(await steps.codeFor(account.email)),
      200,
      M.accountConfirmed,
    );
    await steps.login(account.email, account.password);
  });

  it('a wrong code is a 400 and leaves the account unconfirmed', async () => {
    const account = await steps.signUp();
    const code = await steps.codeFor(account.email);
    expectMessage(await steps.confirmWith(otherCode(code), account.email), 400, M.codeInvalid);
    expect(await userRow(server, account.email)).toMatchObject({ confirmed: 0 });
  });

  it('the code of another account does not confirm this one', async () => {
    const mine = await steps.signUp();
    const theirs = await steps.signUp();
    await steps.inbox.fetch();
    const theirCode = steps.inbox.codeFor(theirs.email);
    // Live codes of one purpose are unique, so theirs cannot happen to be mine.
    expect(theirCode).not.toBe(steps.inbox.codeFor(mine.email));
    expectMessage(await steps.confirmWith(theirCode, mine.email), 400, M.codeInvalid);
    expect(await userRow(server, mine.email)).toMatchObject({ confirmed: 0 });
    expect(await userRow(server, theirs.email)).toMatchObject({ confirmed: 0 });
  });

  it.each(badCodeBodies)('confirm-account, %s: 400 "%s"', async (_label, body, path, message) => {
    expectInvalid(await steps.api({ url: '/api/auth/confirm-account', body }), path, message);
  });

  it('resend mails a new code that replaces the old one', async () => {
    const account = await steps.signUp();
    const oldCode = await steps.codeFor(account.email);
    server.clock.advance(CODE_RESEND_INTERVAL_MS);
    const res = await steps.resend(account.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.resendDone });
    const newCode = await steps.codeFor(account.email);
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(2);
    if (newCode !== oldCode) {
      expectMessage(await steps.confirmWith(oldCode, account.email), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(newCode, account.email), 200, M.accountConfirmed);
  });

  it('resend within a minute of the last code mails nothing and keeps the live code', async () => {
    const account = await steps.signUp();
    const code = await steps.codeFor(account.email);
    server.clock.advance(CODE_RESEND_INTERVAL_MS - 1);
    expectMessage(await steps.resend(account.email), 200, M.resendDone);
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(1);
    expectMessage(await steps.confirmWith(code, account.email), 200, M.accountConfirmed);
  });

  it.each([
    ['email missing', {}, 'email', V.emailRequired],
    ['email empty', { email: '' }, 'email', V.emailRequired],
    ['email not an address', { email: 'a b@c.d' }, 'email', V.emailInvalid],
  ])('resend-confirmation, %s: 400 "%s"', async (_label, body, path, message) => {
    expectInvalid(await steps.api({ url: '/api/auth/resend-confirmation', body }), path, message);
  });
});

import { describe, expect, it } from 'vitest';
import { CODE_RESEND_INTERVAL_MS } from '../../../../src/server/features/accounts/codes.js';
import { M, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  expectInvalid,
  expectMessage,
  newEmail,
  PASSWORD,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

describe('POST /api/auth/login', async () => {
  const server = await build();
  const steps = accounts(server);

  it('returns {message, token} for a confirmed account', async () => {
    const account = await steps.signUp();
    await steps.confirm(account.email);
    const res = await steps.loginWith(account.email, account.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.loginDone, token: expect.stringMatching(/^[\w-]{43}$/) });
    expect((await steps.user(res.body.token!)).status).toBe(200);
  });

  it('matches the e-mail whatever its case and surrounding spaces', async () => {
    const account = await steps.signedIn();
    await steps.login(`  ${account.email.toUpperCase()} `, account.password);
  });

  it('gives a different working token on every login', async () => {
    const account = await steps.signedIn();
    const second = await steps.login(account.email, account.password);
    expect(second).not.toBe(account.token);
    expect((await steps.user(account.token)).status).toBe(200);
    expect((await steps.user(second)).status).toBe(200);
  });

  it('answers one generic 400 for a wrong password or an unknown e-mail', async () => {
    const account = await steps.signedIn();
    expectMessage(await steps.loginWith(account.email, 'wrong-Password-1'), 400, M.badCredentials);
    expectMessage(await steps.loginWith(newEmail('nobody'), PASSWORD), 400, M.badCredentials);
  });

  it('answers 500, not "wrong password", when a stored hash cannot be read', async () => {
    const account = await steps.signedIn();
    await server.database.db
      .updateTable('users')
      .set({ password_hash: 'not-an-argon2-hash' })
      .where('email', '=', account.email)
      .execute();
    const res = await steps.loginWith(account.email, account.password);
    expect(res.status).toBe(500);
    expect(res.body.message).not.toMatch(/argon|hash/i);
  });

  it('right password on an unconfirmed account: 403 and a fresh code (at most one a minute)', async () => {
    const account = await steps.signUp();
    const firstCode = await steps.codeFor(account.email);
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(1);

    // The sign-up code went out a moment ago: 403, but no second mail yet.
    expectMessage(await steps.loginWith(account.email, account.password), 403, M.notConfirmed);
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(1);

    server.clock.advance(CODE_RESEND_INTERVAL_MS);
    expectMessage(await steps.loginWith(account.email, account.password), 403, M.notConfirmed);
    const newCode = await steps.codeFor(account.email);
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(2);
    expect(steps.inbox.lastMailTo(account.email).subject).toBe('Confirm your Stockroom account');

    // The new code replaced the old one.
    if (newCode !== firstCode) {
      expectMessage(await steps.confirmWith(firstCode, account.email), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(newCode, account.email), 200, M.accountConfirmed);
    await steps.login(account.email, account.password);
  });

  it('wrong password on an unconfirmed account: the generic 400 and no mail', async () => {
    const account = await steps.signUp();
    await steps.inbox.fetch();
    server.clock.advance(CODE_RESEND_INTERVAL_MS);
    expectMessage(await steps.loginWith(account.email, 'wrong-Password-1'), 400, M.badCredentials);
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(1);
  });

  it.each([
    ['email missing', { password: PASSWORD }, 'email', V.emailRequired],
    ['email empty', { email: '', password: PASSWORD }, 'email', V.emailRequired],
    ['email not an address', { email: 'nope', password: PASSWORD }, 'email', V.emailInvalid],
    ['password missing', { email: 'a@example.com' }, 'password', V.passwordRequired],
    ['password empty', { email: 'a@example.com', password: '' }, 'password', V.passwordRequired],
  ])('%s: 400 "%s"', async (_label, body, path, message) => {
    expectInvalid(await steps.api({ url: '/api/auth/login', body }), path, message);
  });

  it('lists both missing fields', async () => {
    const res = await steps.api({ url: '/api/auth/login', body: {} });
    expect(res.body).toEqual({
      message: V.emailRequired,
      errors: [
        { path: 'email', message: V.emailRequired },
        { path: 'password', message: V.passwordRequired },
      ],
    });
  });
});

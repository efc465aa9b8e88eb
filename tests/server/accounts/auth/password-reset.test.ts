import { describe, expect, it } from 'vitest';
import { M, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  badCodeBodies,
  expectInvalid,
  expectMessage,
  newEmail,
  NEW_PASSWORD,
  otherCode,
  PASSWORD,
  userRow,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

describe('forgot-password, validate-password-token and reset-password/{token}', async () => {
  const server = await build();
  const steps = accounts(server);

  /** A confirmed account with two live tokens and a reset code in its mailbox. */
  async function withResetCode() {
    const account = await steps.signedIn();
    const secondToken = await steps.login(account.email, account.password);
    expectMessage(await steps.forgot(account.email), 200, M.forgotDone);
    const code = await steps.codeFor(account.email);
    return { ...account, tokens: [account.token, secondToken], code };
  }

  it('forgot-password mails a reset code', async () => {
    const { email, code } = await withResetCode();
    expect(code).toMatch(/^\d{6}$/);
    expect(steps.inbox.lastMailTo(email).subject).toBe('Reset your Stockroom password');
  });

  it('validate-password-token accepts the code without using it up', async () => {
    const { email, code } = await withResetCode();
    expectMessage(await steps.validate(code, email), 200, M.codeValid);
    expectMessage(await steps.validate(code), 200, M.codeValid);
    expectMessage(await steps.reset(code, NEW_PASSWORD, email), 200, M.passwordReset);
  });

  it('reset-password sets the password, signs out every token and mails the owner', async () => {
    const { email, code, tokens } = await withResetCode();
    const res = await steps.reset(code, NEW_PASSWORD, email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.passwordReset });
    for (const token of tokens) expectMessage(await steps.user(token), 401, M.unauthorized);
    expectMessage(await steps.loginWith(email, PASSWORD), 400, M.badCredentials);
    await steps.login(email, NEW_PASSWORD);
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(email).subject).toBe('Your Stockroom password was changed');
  });

  it('reset-password works with the bare code too (without the e-mail)', async () => {
    const { email, code } = await withResetCode();
    expectMessage(await steps.reset(code, NEW_PASSWORD), 200, M.passwordReset);
    await steps.login(email, NEW_PASSWORD);
  });

  it('a reset also confirms an account that was never confirmed (the code proved the mailbox)', async () => {
    const account = await steps.signUp();
    await steps.inbox.fetch();
    await steps.forgot(account.email);
    const code = await steps.codeFor(account.email);
    expect(await userRow(server, account.email)).toMatchObject({ confirmed: 0 });
    expectMessage(await steps.reset(code, NEW_PASSWORD, account.email), 200, M.passwordReset);
    expect(await userRow(server, account.email)).toMatchObject({ confirmed: 1 });
    await steps.login(account.email, NEW_PASSWORD);
  });

  it('changing the e-mail deletes the live reset code', async () => {
    const { name, email, code, tokens } = await withResetCode();
    const moved = newEmail('moved');
    expect((await steps.updateProfile(tokens[0]!, { name, email: moved })).status).toBe(200);
    const proof = await steps.codeFor(moved);
    expectMessage(await steps.confirmEmail(tokens[0]!, proof), 200, M.emailChanged);
    expectMessage(await steps.validate(code, moved), 400, M.codeInvalid);
    expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
    expectMessage(await steps.validate(code), 400, M.codeInvalid);
    expectMessage(await steps.reset(code, NEW_PASSWORD), 400, M.codeInvalid);
    await steps.login(moved, PASSWORD);
  });

  it('a wrong code changes nothing', async () => {
    const { email, code, tokens } = await withResetCode();
    const wrong = otherCode(code);
    expectMessage(await steps.reset(wrong, NEW_PASSWORD, email), 400, M.codeInvalid);
    expectMessage(await steps.validate(wrong, email), 400, M.codeInvalid);
    expect((await steps.user(tokens[0]!)).status).toBe(200);
    await steps.login(email, PASSWORD);
  });

  describe('validation', () => {
    const post = (url: string, body: Record<string, unknown>) => steps.api({ url, body });

    it.each([
      ['email missing', {}, 'email', V.emailRequired],
      ['email empty', { email: ' ' }, 'email', V.emailRequired],
      ['email not an address', { email: 'nope@' }, 'email', V.emailInvalid],
    ])('forgot-password, %s: 400 "%s"', async (_label, body, path, message) => {
      expectInvalid(await post('/api/auth/forgot-password', body), path, message);
    });

    it.each(badCodeBodies)(
      'validate-password-token, %s: 400 "%s"',
      async (_label, body, path, message) => {
        expectInvalid(await post('/api/auth/validate-password-token', body), path, message);
      },
    );

    const good = { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    it.each([
      ['code in the path not 6 digits', 'abc', good, 'token', V.codeInvalid],
      ['password missing', '123456', { confirmPassword: 'x1' }, 'password', V.passwordRequired],
      [
        'password without a letter',
        '123456',
        { password: '12345678', confirmPassword: '12345678' },
        'password',
        V.passwordLetter,
      ],
      [
        'password without a number',
        '123456',
        { password: 'abcdefgh', confirmPassword: 'abcdefgh' },
        'password',
        V.passwordNumber,
      ],
      [
        'confirmPassword missing',
        '123456',
        { password: NEW_PASSWORD },
        'confirmPassword',
        V.passwordRequired,
      ],
      [
        'passwords that differ',
        '123456',
        { password: NEW_PASSWORD, confirmPassword: PASSWORD },
        'confirmPassword',
        V.passwordsMismatch,
      ],
      ['email not an address', '123456', { ...good, email: 'nope' }, 'email', V.emailInvalid],
    ])('reset-password, %s: 400 "%s"', async (_label, token, body, path, message) => {
      expectInvalid(await post(`/api/auth/reset-password/${token}`, body), path, message);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { M, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  expectInvalid,
  expectMessage,
  NEW_PASSWORD,
  PASSWORD,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

describe('POST /api/auth/profile/change-password', async () => {
  const server = await build();
  const steps = accounts(server);
  const url = '/api/auth/profile/change-password';

  it('returns {message}: this token stays valid, every other one is revoked, the owner is told', async () => {
    const account = await steps.signedIn();
    const otherSessions = [
      await steps.login(account.email, PASSWORD),
      await steps.login(account.email, PASSWORD),
    ];
    const res = await steps.changePassword(account.token, PASSWORD, NEW_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.passwordChanged });

    expect((await steps.user(account.token)).status).toBe(200);
    for (const other of otherSessions) expectMessage(await steps.user(other), 401, M.unauthorized);
    expectMessage(await steps.loginWith(account.email, PASSWORD), 400, M.badCredentials);
    await steps.login(account.email, NEW_PASSWORD);

    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(account.email).subject).toBe(
      'Your Stockroom password was changed',
    );
  });

  it('a wrong current password is a 400 that changes and revokes nothing', async () => {
    const account = await steps.signedIn();
    const res = await steps.changePassword(account.token, 'wrong-Password-1', NEW_PASSWORD);
    expectMessage(res, 400, M.currentPasswordWrong);
    expect((await steps.user(account.token)).status).toBe(200);
    await steps.login(account.email, PASSWORD);
  });

  it('needs a valid token', async () => {
    const body = {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    };
    expectMessage(await steps.api({ url, body }), 401, M.unauthorized);
  });

  describe('validation', async () => {
    const { token } = await steps.signedIn();
    const good = {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    };
    it.each([
      ['currentPassword missing', { currentPassword: undefined }, 'currentPassword'],
      ['newPassword missing', { newPassword: undefined }, 'newPassword'],
      ['confirmNewPassword missing', { confirmNewPassword: undefined }, 'confirmNewPassword'],
      ['newPassword empty', { newPassword: '', confirmNewPassword: '' }, 'newPassword'],
    ])('%s: 400 "Password is required"', async (_label, change, path) => {
      const res = await steps.api({ url, token, body: { ...good, ...change } });
      expectInvalid(res, path, V.passwordRequired);
    });

    it.each([
      ['without a letter', '12345678', V.passwordLetter],
      ['without a number', 'abcdefgh', V.passwordNumber],
      ['shorter than 8', 'abc1', V.passwordMin],
    ])('newPassword %s: 400 "%s"', async (_label, password, message) => {
      const body = { ...good, newPassword: password, confirmNewPassword: password };
      expectInvalid(await steps.api({ url, token, body }), 'newPassword', message);
    });

    it('passwords that differ: "Passwords do not match" on confirmNewPassword', async () => {
      const body = { ...good, confirmNewPassword: 'other-Password-9' };
      expectInvalid(
        await steps.api({ url, token, body }),
        'confirmNewPassword',
        V.passwordsMismatch,
      );
    });

    it('lists every missing field', async () => {
      const res = await steps.api({ url, token, body: {} });
      expect(res.body.errors).toEqual([
        { path: 'currentPassword', message: V.passwordRequired },
        { path: 'newPassword', message: V.passwordRequired },
        { path: 'confirmNewPassword', message: V.passwordRequired },
      ]);
    });
  });
});

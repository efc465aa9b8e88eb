import { describe, expect, it } from 'vitest';
import { M, V } from '../../../src/shared/messages.js';
import {
  accounts,
  expectInvalid,
  expectMessage,
  newEmail,
  PASSWORD,
  userRow,
} from '../support/accounts.js';
import { build } from '../support/build.js';

describe('PATCH /api/auth/profile', async () => {
  const server = await build();
  const steps = accounts(server);

  it('changes name and e-mail; the old address is told, the new one logs in', async () => {
    const account = await steps.signedIn({ name: 'Old Name' });
    const newAddress = newEmail('moved');
    const res = await steps.updateProfile(account.token, { name: 'New Name', email: newAddress });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: M.profileUpdated });

    expect((await steps.user(account.token)).body.user).toEqual({
      id: expect.any(String),
      name: 'New Name',
      email: newAddress,
    });
    expectMessage(await steps.loginWith(account.email, PASSWORD), 400, M.badCredentials);
    await steps.login(newAddress, PASSWORD);

    await steps.inbox.fetch();
    const told = steps.inbox.lastMailTo(account.email);
    expect(told.subject).toBe('Your Stockroom e-mail address was changed');
    expect(told.text).toContain(newAddress);
  });

  it('a name-only change sends no mail', async () => {
    const account = await steps.signedIn();
    await steps.inbox.fetch();
    const before = steps.inbox.mailsTo(account.email).length;
    const res = await steps.updateProfile(account.token, {
      name: 'Renamed',
      email: account.email.toUpperCase(),
    });
    expectMessage(res, 200, M.profileUpdated);
    await steps.inbox.fetch();
    expect(steps.inbox.mailsTo(account.email)).toHaveLength(before);
    expect(await userRow(server, account.email)).toMatchObject({
      name: 'Renamed',
      email: account.email,
    });
  });

  it('409 when another account uses the e-mail (whatever its case), and nothing changes', async () => {
    const other = await steps.signedIn();
    const pending = await steps.signUp();
    const account = await steps.signedIn({ name: 'Keeps' });
    for (const taken of [other.email, other.email.toUpperCase(), pending.email]) {
      const res = await steps.updateProfile(account.token, { name: 'Changed', email: taken });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: M.emailTaken });
    }
    expect(await userRow(server, account.email)).toMatchObject({ name: 'Keeps' });
    await steps.login(other.email, PASSWORD);
  });

  it('ignores id, confirmed and password fields in the body (no mass assignment)', async () => {
    const account = await steps.signedIn();
    const before = await userRow(server, account.email);
    const res = await steps.api({
      method: 'PATCH',
      url: '/api/auth/profile',
      token: account.token,
      body: {
        name: 'Same',
        email: account.email,
        id: '00000000-0000-4000-8000-000000000000',
        confirmed: 0,
        password: 'chosen-Password-1',
        password_hash: 'chosen',
      },
    });
    expectMessage(res, 200, M.profileUpdated);
    expect(await userRow(server, account.email)).toMatchObject({
      id: before!.id,
      confirmed: 1,
      password_hash: before!.password_hash,
      name: 'Same',
    });
  });

  it('needs a valid token', async () => {
    const body = { name: 'A', email: newEmail() };
    expectMessage(
      await steps.api({ method: 'PATCH', url: '/api/auth/profile', body }),
      401,
      M.unauthorized,
    );
    expectMessage(await steps.updateProfile('not-a-token', body), 401, M.unauthorized);
  });

  describe('validation', async () => {
    const { token, email } = await steps.signedIn();
    it.each([
      ['name missing', { email }, 'name', V.nameRequired],
      ['name blank', { name: ' ', email }, 'name', V.nameRequired],
      ['name of 51 characters', { name: 'n'.repeat(51), email }, 'name', V.nameMax],
      ['email missing', { name: 'A' }, 'email', V.emailRequired],
      ['email empty', { name: 'A', email: '' }, 'email', V.emailRequired],
      ['email not an address', { name: 'A', email: 'nope' }, 'email', V.emailInvalid],
    ])('%s: 400 "%s"', async (_label, body, path, message) => {
      expectInvalid(
        await steps.api({ method: 'PATCH', url: '/api/auth/profile', token, body }),
        path,
        message,
      );
    });

    it('lists both missing fields', async () => {
      const res = await steps.api({ method: 'PATCH', url: '/api/auth/profile', token, body: {} });
      expect(res.body).toEqual({
        message: V.nameRequired,
        errors: [
          { path: 'name', message: V.nameRequired },
          { path: 'email', message: V.emailRequired },
        ],
      });
    });
  });
});

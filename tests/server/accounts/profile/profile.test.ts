import { describe, expect, it } from 'vitest';
import { M, T, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  expectInvalid,
  expectMessage,
  newEmail,
  PASSWORD,
  userRow,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

describe('PATCH /api/auth/profile', async () => {
  const server = await build();
  const steps = accounts(server);

  it('changes the name at once, and the e-mail once the code mailed to it is entered', async () => {
    const account = await steps.signedIn({ name: 'Old Name' });
    const newAddress = newEmail('moved');
    const res = await steps.updateProfile(account.token, { name: 'New Name', email: newAddress });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: T.emailCodeSent(newAddress, account.email) });

    // Until the code comes back, the account keeps its address.
    expect((await steps.user(account.token)).body.user).toEqual({
      id: expect.any(String),
      name: 'New Name',
      email: account.email,
    });
    await steps.login(account.email, PASSWORD);
    const code = await steps.codeFor(newAddress);
    expect(steps.inbox.lastMailTo(newAddress).subject).toBe(
      'Confirm your new Stockroom e-mail address',
    );

    expectMessage(await steps.confirmEmail(account.token, code), 200, M.emailChanged);
    expect((await steps.user(account.token)).body.user).toMatchObject({ email: newAddress });
    expectMessage(await steps.loginWith(account.email, PASSWORD), 400, M.badCredentials);
    await steps.login(newAddress, PASSWORD);
    // Single use.
    expectMessage(await steps.confirmEmail(account.token, code), 400, M.codeInvalid);

    await steps.inbox.fetch();
    for (const address of [account.email, newAddress]) {
      const told = steps.inbox.lastMailTo(address);
      expect(told.subject).toBe('Your Stockroom e-mail address was changed');
      expect(told.text).toContain(`from ${account.email} to ${newAddress}`);
    }
  });

  it('refuses a wrong code, burns it at the fifth, and keeps the address', async () => {
    const account = await steps.signedIn();
    const newAddress = newEmail('typo');
    await steps.updateProfile(account.token, { name: 'A', email: newAddress });
    const code = await steps.codeFor(newAddress);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      expectMessage(await steps.confirmEmail(account.token, wrong), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmEmail(account.token, code), 400, M.codeInvalid);
    expect((await steps.user(account.token)).body.user).toMatchObject({ email: account.email });
    const bad = await steps.api({
      url: '/api/auth/profile/confirm-email',
      token: account.token,
      body: { token: '12ab' },
    });
    expectInvalid(bad, 'token', V.codeInvalid);
  });

  it('a code expires after 10 minutes; a newer request replaces the code of the one before', async () => {
    const account = await steps.signedIn();
    const first = newEmail('first');
    await steps.updateProfile(account.token, { name: 'A', email: first });
    const firstCode = await steps.codeFor(first);
    server.clock.advance(10 * 60_000);
    expectMessage(await steps.confirmEmail(account.token, firstCode), 400, M.codeInvalid);

    const second = newEmail('second');
    await steps.updateProfile(account.token, { name: 'A', email: second });
    const secondCode = await steps.codeFor(second);
    const third = newEmail('third');
    await steps.updateProfile(account.token, { name: 'A', email: third });
    expectMessage(await steps.confirmEmail(account.token, secondCode), 400, M.codeInvalid);
    const thirdCode = await steps.codeFor(third);
    expectMessage(await steps.confirmEmail(account.token, thirdCode), 200, M.emailChanged);
    expect((await steps.user(account.token)).body.user).toMatchObject({ email: third });
  });

  it('409 at confirmation when another account took the address meanwhile', async () => {
    const account = await steps.signedIn();
    const contested = newEmail('contested');
    await steps.updateProfile(account.token, { name: 'A', email: contested });
    const code = await steps.codeFor(contested);
    await steps.signUp({ email: contested });
    expectMessage(await steps.confirmEmail(account.token, code), 409, M.emailTaken);
    expect((await steps.user(account.token)).body.user).toMatchObject({ email: account.email });
  });

  it('keeps to the mail budget of the new address', async () => {
    const account = await steps.signedIn();
    const target = newEmail('budget');
    for (let i = 0; i < 3; i += 1) {
      const res = await steps.updateProfile(account.token, { name: 'A', email: target });
      expect(res.body).toEqual({ message: T.emailCodeSent(target, account.email) });
    }
    await steps.inbox.fetch();
    // One mail a minute per address and purpose.
    expect(steps.inbox.mailsTo(target)).toHaveLength(1);
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

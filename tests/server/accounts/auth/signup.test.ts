import { describe, expect, it } from 'vitest';
import { M, V } from '../../../../src/shared/messages.js';
import {
  accounts,
  expectInvalid,
  expectMessage,
  newEmail,
  PASSWORD,
  userRow,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /api/auth/signup', async () => {
  const server = await build();
  const steps = accounts(server);
  const signup = (body: Record<string, unknown>) => steps.api({ url: '/api/auth/signup', body });
  const valid = () => ({
    name: 'Grace Hopper',
    email: newEmail('signup'),
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });

  it('creates an unconfirmed account, stores an argon2id hash and mails a code', async () => {
    const body = valid();
    const res = await signup(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: M.signupDone });

    const row = await userRow(server, body.email);
    expect(row).toMatchObject({ name: 'Grace Hopper', email: body.email, confirmed: 0 });
    expect(row!.id).toMatch(UUID);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);

    expect(await steps.codeFor(body.email)).toMatch(/^\d{6}$/);
    expectMessage(await steps.loginWith(body.email, PASSWORD), 403, M.notConfirmed);
  });

  it('stores the e-mail trimmed and in lower case, and the name trimmed', async () => {
    const email = newEmail('MiXeD');
    const res = await signup({ ...valid(), name: '  Grace  ', email: `  ${email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(await userRow(server, email)).toMatchObject({
      name: 'Grace',
      email: email.toLowerCase(),
    });
  });

  it('keeps the password exactly as typed (no trimming)', async () => {
    const account = await steps.signUp({ password: ' spaced-Pass-1 ' });
    await steps.confirm(account.email);
    expectMessage(await steps.loginWith(account.email, 'spaced-Pass-1'), 400, M.badCredentials);
    await steps.login(account.email, ' spaced-Pass-1 ');
  });

  it('concurrent sign-ups with one new e-mail all answer 201 and make one account', async () => {
    const body = valid();
    const answers = await Promise.all([signup(body), signup(body), signup(body)]);
    expect(answers.map((res) => [res.status, res.body.message])).toEqual(
      Array(3).fill([201, M.signupDone]),
    );
    const rows = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', body.email)
      .execute();
    expect(rows).toHaveLength(1);
    await steps.confirm(body.email);
    await steps.login(body.email, PASSWORD);
  });

  it('accepts a name of exactly 50 characters', async () => {
    expect((await signup({ ...valid(), name: 'n'.repeat(50) })).status).toBe(201);
  });

  it.each([
    ['name missing', { name: undefined }, 'name', V.nameRequired],
    ['name blank', { name: '   ' }, 'name', V.nameRequired],
    ['name of 51 characters', { name: 'n'.repeat(51) }, 'name', V.nameMax],
    ['email missing', { email: undefined }, 'email', V.emailRequired],
    ['email empty', { email: '' }, 'email', V.emailRequired],
    ['email not an address', { email: 'not-an-email' }, 'email', V.emailInvalid],
    ['password missing', { password: undefined }, 'password', V.passwordRequired],
    ['password empty', { password: '', confirmPassword: '' }, 'password', V.passwordRequired],
    [
      'password without a letter',
      { password: '12345678', confirmPassword: '12345678' },
      'password',
      V.passwordLetter,
    ],
    [
      'password without a number',
      { password: 'abcdefgh', confirmPassword: 'abcdefgh' },
      'password',
      V.passwordNumber,
    ],
    [
      'password shorter than 8',
      { password: 'abc1', confirmPassword: 'abc1' },
      'password',
      V.passwordMin,
    ],
    [
      'password longer than 128',
      { password: 'a1'.repeat(65), confirmPassword: 'a1'.repeat(65) },
      'password',
      V.passwordMax,
    ],
    [
      'confirmPassword missing',
      { confirmPassword: undefined },
      'confirmPassword',
      V.confirmPasswordRequired,
    ],
    [
      'confirmPassword empty',
      { confirmPassword: '' },
      'confirmPassword',
      V.confirmPasswordRequired,
    ],
    [
      'passwords that differ',
      { confirmPassword: 'other-Password-9' },
      'confirmPassword',
      V.passwordsMismatch,
    ],
  ])('%s: 400 "%s"', async (_label, change, path, message) => {
    const body = { ...valid(), ...change };
    expectInvalid(await signup(body), path, message);
    expect(await userRow(server, body.email ?? '')).toBeUndefined();
  });

  it('lists every failing field in form order, the first one as message', async () => {
    const res = await signup({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: V.nameRequired,
      errors: [
        { path: 'name', message: V.nameRequired },
        { path: 'email', message: V.emailRequired },
        { path: 'password', message: V.passwordRequired },
        { path: 'confirmPassword', message: V.confirmPasswordRequired },
      ],
    });
  });

  it('ignores confirmed, id and other server fields in the body (no mass assignment)', async () => {
    const body = {
      ...valid(),
      id: '00000000-0000-4000-8000-000000000000',
      confirmed: true,
      password_hash: 'chosen',
      created_at: 0,
    };
    expect((await signup(body)).status).toBe(201);
    const row = await userRow(server, body.email);
    expect(row!.id).toMatch(UUID);
    expect(row!.id).not.toBe(body.id);
    expect(row).toMatchObject({ confirmed: 0 });
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.created_at).toBe(server.clock.now());
    // Still needs its code before it can log in.
    expectMessage(await steps.loginWith(body.email, PASSWORD), 403, M.notConfirmed);
    await steps.confirm(body.email);
    await steps.login(body.email, PASSWORD);
  });
});

import { describe, expect, it } from 'vitest';
import { A } from '../../../../src/shared/account-messages.js';
import { M } from '../../../../src/shared/messages.js';
import { seal } from '../../../../src/server/lib/sealed.js';
import { expectMessage, PASSWORD, userRow } from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { authenticator, nextStep, tokenOf, twoFactor } from './support.js';

const STEP_MS = 30_000;
const DAY_MS = 24 * 3_600_000;

describe('two-factor sign-in with an authenticator app', async () => {
  const server = await build();
  const tf = twoFactor(server);
  const { steps } = tf;

  it('is set up with a secret, its otpauth URL and a first code; then login asks for a code', async () => {
    const account = await steps.signedIn({ name: 'Grace Hopper' });
    const started = await tf.start(account.token);
    expect(started.status).toBe(200);
    const setup = JSON.parse(started.text) as { secret: string; otpauthUrl: string };
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Stockroom:${account.email}`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: setup.secret,
      issuer: 'Stockroom',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    // Not on until a first code proves the app has the secret.
    expect(JSON.parse((await tf.status(account.token)).text)).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
    });
    expect(JSON.parse((await steps.loginWith(account.email, PASSWORD)).text)).toEqual({
      message: M.loginDone,
      token: expect.any(String),
    });

    const app = authenticator(setup.secret, server);
    expectMessage(await tf.confirm(account.token, app.code(5)), 400, A.totpCodeWrong);
    const confirmed = await tf.confirm(account.token, app.code());
    expect(confirmed.status).toBe(200);
    const { message, recoveryCodes } = JSON.parse(confirmed.text) as {
      message: string;
      recoveryCodes: string[];
    };
    expect(message).toBe(A.totpOn);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(JSON.parse((await tf.status(account.token)).text)).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
    });
    expectMessage(await tf.start(account.token), 409, A.totpAlreadyOn);
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(account.email).subject).toBe(
      'Two-factor sign-in is on for your Stockroom account',
    );

    nextStep(server);
    const login = await steps.loginWith(account.email, PASSWORD);
    const answer = JSON.parse(login.text) as Record<string, unknown>;
    expect(answer).toEqual({
      message: A.secondStepNeeded,
      mfa: { challengeId: expect.stringMatching(/^[\w-]{43}$/), methods: ['totp', 'recovery'] },
    });
    const { challengeId } = answer.mfa as { challengeId: string };
    const done = await tf.loginMfa({ challengeId, code: app.code() });
    expect(JSON.parse(done.text)).toEqual({ message: M.loginDone, token: expect.any(String) });
    expect((await steps.user(tokenOf(done))).status).toBe(200);
    // A challenge is used once.
    nextStep(server);
    expectMessage(await tf.loginMfa({ challengeId, code: app.code() }), 400, A.signInExpired);
  });

  it('accepts the codes of the step before and after, not further; the clock moves', async () => {
    const account = await tf.account();
    // Set-up used the code of the step before this one: one step on, that step's neighbour is new.
    nextStep(server);
    for (const [offset, accepted] of [
      [-2, false],
      [2, false],
      [-1, true],
    ] as const) {
      const challengeId = await tf.challenge(account);
      const res = await tf.loginMfa({ challengeId, code: account.app.code(offset) });
      expect({ offset, status: res.status }).toEqual({ offset, status: accepted ? 200 : 400 });
    }
    // The code of the step after is accepted too; the clock then reaches that step, whose code
    // was used: refused, and the following step's works.
    nextStep(server);
    const ahead = account.app.code(1);
    expect(
      (await tf.loginMfa({ challengeId: await tf.challenge(account), code: ahead })).status,
    ).toBe(200);
    server.clock.advance(STEP_MS);
    expect(account.app.code()).toBe(ahead);
    expectMessage(
      await tf.loginMfa({ challengeId: await tf.challenge(account), code: ahead }),
      400,
      A.totpCodeWrong,
    );
    nextStep(server);
    expect(
      (await tf.loginMfa({ challengeId: await tf.challenge(account), code: account.app.code() }))
        .status,
    ).toBe(200);
  });

  it('refuses a code used twice, also when the two tries race', async () => {
    const account = await tf.account();
    const code = account.app.code();
    const challenges = await Promise.all([1, 2, 3, 4].map(() => tf.challenge(account)));
    const answers = await Promise.all(
      challenges.map((challengeId) => tf.loginMfa({ challengeId, code })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400]);
    expectMessage(
      await tf.loginMfa({ challengeId: await tf.challenge(account), code }),
      400,
      A.totpCodeWrong,
    );
  });

  it('burns a sign-in after 5 wrong codes: log in again', async () => {
    const account = await tf.account();
    const challengeId = await tf.challenge(account);
    const wrong = account.app.code(10);
    for (let i = 0; i < 5; i += 1) {
      expectMessage(await tf.loginMfa({ challengeId, code: wrong }), 400, A.totpCodeWrong);
    }
    expectMessage(
      await tf.loginMfa({ challengeId, code: account.app.code() }),
      400,
      A.signInExpired,
    );
    const fresh = await tf.challenge(account);
    expect((await tf.loginMfa({ challengeId: fresh, code: account.app.code() })).status).toBe(200);
  });

  it('takes at most 30 wrong codes a day per account, in parallel too; then 429 even for the right one', async () => {
    const account = await tf.account();
    const { id } = (await userRow(server, account.email))!;
    const wrong = account.app.code(10);
    // 10 sign-ins of 5 wrong tries each, all at once: only 30 may count.
    const challenges = await Promise.all(Array.from({ length: 10 }, () => tf.challenge(account)));
    const answers = await Promise.all(
      challenges.flatMap((challengeId) =>
        Array.from({ length: 5 }, () => tf.loginMfa({ challengeId, code: wrong })),
      ),
    );
    const counts: Record<number, number> = {};
    for (const res of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
    expect(counts[400]).toBeGreaterThanOrEqual(30);
    expect(counts[429] ?? 0).toBeGreaterThan(0);
    const counted = await server.database.db
      .selectFrom('account_code_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', id)
      .where('purpose', '=', 'second-factor')
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(30);

    const blocked = await tf.loginMfa({
      challengeId: await tf.challenge(account),
      code: account.app.code(),
    });
    expectMessage(blocked, 429, M.tooManyCodeAttempts);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(DAY_MS / 1000 - 120);
    // Recovery codes share the budget: no way around it.
    const recovery = await tf.loginMfa({
      challengeId: await tf.challenge(account),
      recoveryCode: account.recoveryCodes[0],
    });
    expect(recovery.status).toBe(429);

    server.clock.advance(DAY_MS);
    nextStep(server);
    const after = await tf.loginMfa({
      challengeId: await tf.challenge(account),
      code: account.app.code(),
    });
    expect(after.status).toBe(200);
  });

  it('a sign-in waits 5 minutes for its second step', async () => {
    const account = await tf.account();
    const challengeId = await tf.challenge(account);
    server.clock.advance(5 * 60_000);
    expectMessage(
      await tf.loginMfa({ challengeId, code: account.app.code() }),
      400,
      A.signInExpired,
    );
  });

  it('refuses unknown sign-ins and bodies without exactly one second step', async () => {
    const account = await tf.account();
    const challengeId = await tf.challenge(account);
    expectMessage(
      await tf.loginMfa({ challengeId: 'x'.repeat(43), code: account.app.code() }),
      400,
      A.signInExpired,
    );
    expectMessage(await tf.loginMfa({ challengeId }), 400, A.oneSecondStep);
    expectMessage(
      await tf.loginMfa({ challengeId, code: account.app.code(), recoveryCode: 'abcde-fghjk' }),
      400,
      A.oneSecondStep,
    );
    expectMessage(await tf.loginMfa({ challengeId, code: '12345' }), 400, A.totpCodeInvalid);
  });

  it('is turned off with the password and a code; login then gives a token at once', async () => {
    const account = await tf.account();
    expectMessage(
      await tf.turnOff(account.token, 'wrong-Password-1', account.app.code()),
      400,
      A.passwordWrong,
    );
    expectMessage(
      await tf.turnOff(account.token, PASSWORD, account.app.code(9)),
      400,
      A.secondFactorCodeWrong,
    );
    expectMessage(await tf.turnOff(account.token, PASSWORD, account.app.code()), 200, A.totpOff);
    expectMessage(await tf.turnOff(account.token, PASSWORD, account.app.code()), 409, A.totpNotOn);
    expect(JSON.parse((await steps.loginWith(account.email, PASSWORD)).text)).toEqual({
      message: M.loginDone,
      token: expect.any(String),
    });
    expect(JSON.parse((await tf.status(account.token)).text)).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
    });
    await steps.inbox.fetch();
    expect(steps.inbox.lastMailTo(account.email).subject).toBe(
      'Two-factor sign-in was turned off for your Stockroom account',
    );
  });

  it('needs a token for every set-up route', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/mfa'],
      ['POST', '/api/auth/mfa/totp'],
      ['POST', '/api/auth/mfa/totp/confirm'],
      ['DELETE', '/api/auth/mfa/totp'],
      ['POST', '/api/auth/mfa/recovery-codes'],
    ] as const) {
      expectMessage(await steps.api({ method, url, body: {} }), 401, M.unauthorized);
    }
  });

  describe('a secret sealed under another APP_SECRET (a restore without secret.key)', () => {
    const OTHER_SECRET = 'another-secret-that-is-at-least-32-characters';
    const sealElsewhere = async (email: string) => {
      const { id } = (await userRow(server, email))!;
      await server.database.db
        .updateTable('user_totp')
        .set({
          secret_sealed: seal(OTHER_SECRET, 'totp-secret', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
        })
        .where('user_id', '=', id)
        .execute();
    };

    it('refuses its codes as wrong ones, never with a 500', async () => {
      const account = await tf.account();
      await sealElsewhere(account.email);
      expectMessage(
        await tf.loginMfa({ challengeId: await tf.challenge(account), code: account.app.code() }),
        400,
        A.totpCodeWrong,
      );
      expectMessage(
        await tf.turnOff(account.token, PASSWORD, account.app.code()),
        400,
        A.secondFactorCodeWrong,
      );
      // A recovery code, hashed with the secret the server has, still signs in.
      const challengeId = await tf.challenge(account);
      const res = await tf.loginMfa({ challengeId, recoveryCode: account.recoveryCodes[0] });
      expect(res.status).toBe(200);
    });

    it('asks for a set-up waiting for its first code to start again', async () => {
      const account = await steps.signedIn();
      const started = await tf.start(account.token);
      const { secret } = JSON.parse(started.text) as { secret: string };
      await sealElsewhere(account.email);
      const app = authenticator(secret, server);
      expectMessage(await tf.confirm(account.token, app.code()), 409, A.totpNotStarted);
      const again = JSON.parse((await tf.start(account.token)).text) as { secret: string };
      const confirmed = await tf.confirm(account.token, authenticator(again.secret, server).code());
      expect(confirmed.status).toBe(200);
    });
  });
});

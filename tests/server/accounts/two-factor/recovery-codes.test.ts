import { describe, expect, it } from 'vitest';
import { A } from '../../../../src/shared/account-messages.js';
import { M } from '../../../../src/shared/messages.js';
import { expectMessage, PASSWORD } from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { tokenOf, twoFactor } from './support.js';

describe('recovery codes', async () => {
  const server = await build();
  const tf = twoFactor(server);
  const { steps } = tf;

  it('each signs in once, typed in any case, with spaces or without the dash', async () => {
    const account = await tf.account();
    const [first, second, third] = account.recoveryCodes as [string, string, string];
    const used = await tf.loginMfa({
      challengeId: await tf.challenge(account),
      recoveryCode: first,
    });
    expect(JSON.parse(used.text)).toEqual({ message: M.loginDone, token: expect.any(String) });
    expect((await steps.user(tokenOf(used))).status).toBe(200);
    expectMessage(
      await tf.loginMfa({ challengeId: await tf.challenge(account), recoveryCode: first }),
      400,
      A.recoveryCodeWrong,
    );
    for (const typed of [second.toUpperCase(), ` ${third.replace('-', ' ')} `]) {
      const res = await tf.loginMfa({
        challengeId: await tf.challenge(account),
        recoveryCode: typed,
      });
      expect(res.status).toBe(200);
    }
    expect(JSON.parse((await tf.status(account.token)).text)).toEqual({
      totp: true,
      recoveryCodesLeft: 7,
    });
  });

  it('one used in two sign-ins at once signs in once', async () => {
    const account = await tf.account();
    const code = account.recoveryCodes[4]!;
    const challenges = await Promise.all([1, 2, 3].map(() => tf.challenge(account)));
    const answers = await Promise.all(
      challenges.map((challengeId) => tf.loginMfa({ challengeId, recoveryCode: code })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400]);
  });

  it('turns two-factor sign-in off in place of a code, when the authenticator is lost', async () => {
    const account = await tf.account();
    expectMessage(
      await tf.turnOff(account.token, PASSWORD, account.recoveryCodes[0]!),
      200,
      A.totpOff,
    );
  });

  it('are replaced with a current code; the earlier ones stop working', async () => {
    const account = await tf.account();
    const renew = (code: string) =>
      steps.api({ url: '/api/auth/mfa/recovery-codes', token: account.token, body: { code } });
    expectMessage(await renew(account.app.code(8)), 400, A.totpCodeWrong);
    const renewed = await renew(account.app.code());
    expect(renewed.status).toBe(200);
    const { message, recoveryCodes } = JSON.parse(renewed.text) as {
      message: string;
      recoveryCodes: string[];
    };
    expect(message).toBe(A.recoveryCodesMade);
    expect(recoveryCodes).toHaveLength(10);
    expectMessage(
      await tf.loginMfa({
        challengeId: await tf.challenge(account),
        recoveryCode: account.recoveryCodes[0],
      }),
      400,
      A.recoveryCodeWrong,
    );
    const fresh = await tf.loginMfa({
      challengeId: await tf.challenge(account),
      recoveryCode: recoveryCodes[0],
    });
    expect(fresh.status).toBe(200);
  });

  it('are stored as keyed hashes only', async () => {
    const account = await tf.account();
    const rows = await server.database.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .execute();
    const stored = JSON.stringify(rows);
    for (const code of account.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    const totp = await server.database.db.selectFrom('user_totp').selectAll().execute();
    expect(JSON.stringify(totp)).not.toMatch(/"[A-Z2-7]{32}"/);
  });
});

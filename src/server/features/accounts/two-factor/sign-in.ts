import type { SecondStepMethod } from '../../../../shared/schemas/auth.js';
import type { Assertion } from '../../../../shared/schemas/passkeys.js';
import type { DB } from '../../../infra/db/handle.js';
import type { Clock } from '../../../lib/clock.js';
import { createSession, type SessionDevice } from '../sessions.js';
import { challenges } from './challenges.js';
import type { Passkeys } from './passkeys.js';
import type { RecoveryCodes } from './recovery-codes.js';
import { checkSecondFactor, type SecondFactorCode } from './second-factor.js';
import type { Totp } from './totp.js';

export interface TwoFactorDeps {
  db: DB;
  clock: Clock;
  totp: Totp;
  recoveryCodes: RecoveryCodes;
  passkeys: Passkeys;
}

/** What a sign-in's second step comes to: a session's token, or why not. */
export type SecondStepResult =
  | { ok: true; token: string }
  | { ok: false; reason: 'expired' | 'wrong-totp' | 'wrong-recovery' | 'passkey-refused' }
  | { ok: false; reason: 'budget'; retryAfter: number };

/**
 * The second steps an account asks for after its password, none when two-factor sign-in is off
 * (the spec's sign-in, a token at once). Passkeys count once two-factor sign-in is on.
 */
export async function secondStepMethods(deps: TwoFactorDeps, userId: string) {
  if (!(await deps.totp.isOn(deps.db, userId))) return [];
  const passkeys = await deps.db
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .execute();
  const methods: SecondStepMethod[] = ['totp', 'recovery'];
  if (passkeys.length > 0) methods.push('passkey');
  return methods;
}

/** The password was right and the account asks for more: a challenge to finish with. */
export const startSecondStep = (deps: TwoFactorDeps, userId: string) =>
  challenges.create(deps.db, deps.clock.now(), 'second-factor', userId);

/** Uses the challenge up and opens the session, in one transaction. */
async function consumeAndSignIn(
  deps: TwoFactorDeps,
  idHash: string,
  userId: string,
  device: SessionDevice,
) {
  return deps.db
    .transaction()
    .execute(async (trx) =>
      (await challenges.consume(trx, idHash))
        ? createSession(trx, deps.clock, userId, device)
        : undefined,
    );
}

/**
 * Finishes a sign-in with an authenticator code, a recovery code or a passkey's signature. A wrong
 * code counts against the challenge (burnt at the fifth) and the account's daily budget; the
 * counting commits even though the answer is a refusal. The challenge is used once. A signature
 * is checked outside any transaction: SQLite's writers would wait on the crypto.
 */
export async function finishSecondStep(
  deps: TwoFactorDeps,
  challengeId: string,
  step: SecondFactorCode | { assertion: Assertion },
  device: SessionDevice,
): Promise<SecondStepResult> {
  const now = deps.clock.now();
  if ('assertion' in step) {
    const challenge = await challenges.find(deps.db, challengeId, 'second-factor', now);
    if (!challenge?.userId) return { ok: false, reason: 'expired' };
    const signer = await deps.passkeys.verify(deps.db, challenge, step.assertion, now);
    if (signer !== challenge.userId) {
      await challenges.countWrongTry(deps.db, challenge.idHash);
      return { ok: false, reason: 'passkey-refused' };
    }
    const token = await consumeAndSignIn(deps, challenge.idHash, signer, device);
    return token ? { ok: true, token } : { ok: false, reason: 'expired' };
  }
  return deps.db.transaction().execute(async (trx): Promise<SecondStepResult> => {
    const challenge = await challenges.find(trx, challengeId, 'second-factor', now);
    if (!challenge?.userId) return { ok: false, reason: 'expired' };
    const check = await checkSecondFactor(trx, deps, challenge.userId, step, now);
    if (!check.ok) {
      if (check.reason === 'budget') return check;
      await challenges.countWrongTry(trx, challenge.idHash);
      return { ok: false, reason: 'totp' in step ? 'wrong-totp' : 'wrong-recovery' };
    }
    if (!(await challenges.consume(trx, challenge.idHash))) return { ok: false, reason: 'expired' };
    return { ok: true, token: await createSession(trx, deps.clock, challenge.userId, device) };
  });
}

/**
 * A sign-in with a passkey alone: its challenge was made without an account, and the passkey
 * that signs it names the account. The device checked its owner (user verification), so the
 * passkey stands for the password and the second step together.
 */
export async function signInWithPasskey(
  deps: TwoFactorDeps,
  challengeId: string,
  assertion: Assertion,
  device: SessionDevice,
): Promise<string | undefined> {
  const now = deps.clock.now();
  const challenge = await challenges.find(deps.db, challengeId, 'passkey-sign-in', now);
  if (!challenge || challenge.userId !== null) return undefined;
  const userId = await deps.passkeys.verify(deps.db, challenge, assertion, now);
  if (!userId) {
    await challenges.countWrongTry(deps.db, challenge.idHash);
    return undefined;
  }
  return consumeAndSignIn(deps, challenge.idHash, userId, device);
}

import type { SecondStepMethod } from '../../../shared/schemas/auth.js';
import { requestCode, type MailFlowDeps } from './code-requests.js';
import { verifyAgainstNothing, verifyPassword } from './passwords.js';
import { createSession, type SessionDevice } from './sessions.js';
import { secondStepMethods, startSecondStep, type TwoFactorDeps } from './two-factor/sign-in.js';
import { findUserByEmail } from './users.js';

export type LoginResult =
  | { ok: true; token: string }
  | { ok: 'second-step'; challengeId: string; methods: SecondStepMethod[] }
  | { ok: false; reason: 'bad-credentials' | 'unconfirmed' };

/**
 * Checks the password first. A wrong e-mail costs what a wrong password costs (an argon2 check
 * either way), so the time does not tell whether the address has an account. The right password
 * on an unconfirmed account asks for a new confirmation code (budget permitting). An account with
 * two-factor sign-in gets a challenge to finish with instead of a token.
 */
export async function logIn(
  deps: MailFlowDeps & { twoFactor: TwoFactorDeps },
  email: string,
  password: string,
  device?: SessionDevice,
): Promise<LoginResult> {
  const user = await findUserByEmail(deps.db, email);
  const valid = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstNothing(password);
  if (!user || !valid) return { ok: false, reason: 'bad-credentials' };
  if (user.confirmed === 0) {
    await requestCode(deps, user.email, 'confirm');
    return { ok: false, reason: 'unconfirmed' };
  }
  const methods = await secondStepMethods(deps.twoFactor, user.id);
  if (methods.length > 0) {
    return {
      ok: 'second-step',
      challengeId: await startSecondStep(deps.twoFactor, user.id),
      methods,
    };
  }
  return { ok: true, token: await createSession(deps.db, deps.clock, user.id, device) };
}

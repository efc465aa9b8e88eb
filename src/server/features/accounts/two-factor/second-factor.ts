import type { DB } from '../../../infra/db/handle.js';
import {
  accountBudgetWait,
  accountScope,
  lockBudget,
  recordAccountFailures,
} from '../code-budgets.js';
import type { RecoveryCodes } from './recovery-codes.js';
import type { Totp } from './totp.js';

/** A code as the owner may send it: from the authenticator, or a recovery code. */
export type SecondFactorCode = { totp: string } | { recovery: string };

export type SecondFactorCheck =
  | { ok: true }
  | { ok: false; reason: 'wrong' }
  | { ok: false; reason: 'budget'; retryAfter: number };

/** A code typed in one field: six digits are the authenticator's, anything else a recovery code. */
export const readSecondFactorCode = (code: string): SecondFactorCode =>
  /^\d{6}$/.test(code.trim()) ? { totp: code.trim() } : { recovery: code };

/**
 * Checks an authenticator or recovery code of an account that has two-factor sign-in, in the
 * caller's transaction. Every wrong one counts against the account's second-factor budget (30 a
 * day, across routes and instances, held by the budget's lock); past it the answer is 'budget'
 * without looking. A right one is used up. The caller commits either way, so a failure counts.
 */
export async function checkSecondFactor(
  trx: DB,
  deps: { totp: Totp; recoveryCodes: RecoveryCodes },
  userId: string,
  code: SecondFactorCode,
  now: number,
): Promise<SecondFactorCheck> {
  await lockBudget(trx, accountScope(userId, 'second-factor'));
  const wait = await accountBudgetWait(trx, userId, 'second-factor', now);
  if (wait !== undefined) return { ok: false, reason: 'budget', retryAfter: wait };
  const right =
    'totp' in code
      ? (await deps.totp.check(trx, userId, code.totp, now, 'confirmed')) === 'ok'
      : await deps.recoveryCodes.use(trx, userId, code.recovery, now);
  if (right) return { ok: true };
  await recordAccountFailures(trx, [userId], 'second-factor', now);
  return { ok: false, reason: 'wrong' };
}

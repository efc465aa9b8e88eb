import type { DB } from '../../infra/db/handle.js';
import type { CodePurpose } from '../../infra/db/schema-accounts.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import { deleteCodes, type CodeCheck, type Codes } from './codes.js';
import { hashPassword } from './passwords.js';
import { revokeUserSessions } from './sessions.js';
import { findUserByEmail, findUserById, updateUser } from './users.js';

const INVALID: CodeCheck = { ok: false, reason: 'invalid' };

export interface CodeCheckDeps {
  db: DB;
  clock: Clock;
  codes: Codes;
  outbox: Outbox;
  publicUrl: string;
}

/**
 * The flows that take a six-digit code: confirming an account, checking a reset code, resetting a
 * password. Each says what happened as a CodeCheck and leaves the answer to the route. A code sent
 * with its e-mail is checked against that account (5 tries per code, 100 per account a day); a bare
 * one against the global budget. The effect runs in the transaction that consumes the code, and a
 * failure's counting commits like any other result, so a 4xx still counts.
 */
export class CodeChecks {
  constructor(private readonly deps: CodeCheckDeps) {}

  confirmAccount(code: string, email?: string): Promise<CodeCheck> {
    return this.check('confirm', code, email, true, async (trx, userId) => {
      await updateUser(trx, userId, { confirmed: 1 }, this.deps.clock.now());
    });
  }

  /** Checks a reset code without using it up. */
  validateResetCode(code: string, email?: string): Promise<CodeCheck> {
    return this.check('reset', code, email, false);
  }

  /** Sets the password, signs out every session and tells the owner by mail. */
  async resetPassword(code: string, password: string, email?: string): Promise<CodeCheck> {
    const { clock, outbox, publicUrl } = this.deps;
    // Hashed first, so no budget lock is held through argon2.
    const passwordHash = await hashPassword(password);
    const result = await this.check('reset', code, email, true, async (trx, userId) => {
      // The code proved the mailbox, so an unconfirmed account is confirmed by it too.
      await updateUser(trx, userId, { password_hash: passwordHash, confirmed: 1 }, clock.now());
      await revokeUserSessions(trx, userId);
      const user = await findUserById(trx, userId);
      if (user) {
        await outbox.enqueue(trx, templates.passwordChanged(publicUrl, user.email, user.name));
      }
    });
    if (result.ok) outbox.wake();
    return result;
  }

  /**
   * Moves the account to the address it asked for (its `pending_email`) with the code mailed
   * there: 'taken' when another account has that address by now (the request ends). Every live
   * code went to the old address and goes; both addresses are told.
   */
  async confirmEmailChange(userId: string, code: string): Promise<CodeCheck | { ok: 'taken' }> {
    const { db, clock, codes, outbox, publicUrl } = this.deps;
    const result = await db.transaction().execute(async (trx) => {
      const check = await codes.checkForUser(trx, userId, 'email', code, true);
      if (!check.ok) return check;
      const user = await findUserById(trx, userId);
      const pending = user?.pending_email;
      if (!user || !pending) return INVALID;
      const now = clock.now();
      const holder = await findUserByEmail(trx, pending);
      if (holder && holder.id !== userId) {
        await updateUser(trx, userId, { pending_email: null }, now);
        return { ok: 'taken' as const };
      }
      await updateUser(trx, userId, { email: pending, pending_email: null }, now);
      await deleteCodes(trx, userId);
      const change = { from: user.email, to: pending };
      for (const to of [user.email, pending]) {
        await outbox.enqueue(trx, templates.emailChanged(publicUrl, to, user.name, change));
      }
      return check;
    });
    if (result.ok === true) outbox.wake();
    return result;
  }

  private check(
    purpose: CodePurpose,
    code: string,
    email: string | undefined,
    consume: boolean,
    onValid: (trx: DB, userId: string) => Promise<void> = async () => {},
  ): Promise<CodeCheck> {
    const { db, codes } = this.deps;
    return db.transaction().execute(async (trx) => {
      let result: CodeCheck;
      if (email === undefined) {
        result = await codes.checkBare(trx, purpose, code, consume);
      } else {
        const user = await findUserByEmail(trx, email);
        // A confirmed account has no confirmation code to guess at.
        const eligible = user && (purpose === 'reset' || user.confirmed === 0);
        result = eligible
          ? await codes.checkForUser(trx, user.id, purpose, code, consume)
          : { ok: false, reason: 'invalid' };
      }
      if (result.ok) await onValid(trx, result.userId);
      return result;
    });
  }
}

import { randomUUID } from 'node:crypto';
import { CODE_LENGTH, CODE_MAX_TRIES, CODE_TTL_MINUTES } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { CodePurpose } from '../../infra/db/schema-accounts.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, randomDigits, safeEqual } from '../../lib/secrets.js';
import {
  accountBudgetWait,
  accountScope,
  accountsSpent,
  BARE_WEIGHT_PER_WINDOW,
  bareBudgetWait,
  bareScope,
  lockBudget,
  recordAccountFailures,
  recordBareFailure,
} from './code-budgets.js';

const CODE_TTL_MS = CODE_TTL_MINUTES * 60_000;
/** Code mails to one address and purpose are at least this far apart (mail-budget.ts). */
export const CODE_RESEND_INTERVAL_MS = 60_000;

/** What checking a code found; a spent budget says how many seconds until it has room again. */
export type CodeCheck =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'account-budget' | 'bare-budget'; retryAfter: number };

const INVALID: CodeCheck = { ok: false, reason: 'invalid' };

/**
 * Six-digit codes (docs/decisions/003-code-protection.md): stored only as a keyed hash, one live
 * code per user and purpose, 10 minutes, single use, burnt after 5 wrong tries when the e-mail is
 * known, at most 100 wrong tries per account and purpose a day, and a global budget for guesses
 * that come without an e-mail. Every count is made under its budget's lock (code-budgets.ts).
 */
export class Codes {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
  ) {}

  private hash(purpose: CodePurpose, code: string) {
    return keyedHash(this.secret, 'code', purpose, code);
  }

  /** Replaces the user's live code of this purpose with a new one, unique among live codes. */
  async issue(trx: DB, userId: string, purpose: CodePurpose): Promise<string> {
    return (await this.issueWithId(trx, userId, purpose)).code;
  }

  /** `issue`, also giving the code row's id: a mail request keeps the id, never the code. */
  async issueWithId(
    trx: DB,
    userId: string,
    purpose: CodePurpose,
  ): Promise<{ id: string; code: string }> {
    const now = this.clock.now();
    await trx
      .deleteFrom('codes')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .execute();
    const { code, codeHash } = await this.unusedCode(trx, purpose, now);
    const id = randomUUID();
    await trx
      .insertInto('codes')
      .values({
        id,
        user_id: userId,
        purpose,
        code_hash: codeHash,
        expires_at: now + CODE_TTL_MS,
        failed_attempts: 0,
        created_at: now,
      })
      .execute();
    return { id, code };
  }

  /**
   * Gives a live code new digits, for a mail that must be sent again after its code was only ever
   * in memory. Expiry and wrong tries stay as they were, so a re-sent mail adds neither time nor
   * guesses. Undefined when the code is no longer live (used, burnt, replaced or expired).
   */
  async rekey(trx: DB, id: string): Promise<string | undefined> {
    const now = this.clock.now();
    const row = await trx
      .selectFrom('codes')
      .select('purpose')
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    const { code, codeHash } = await this.unusedCode(trx, row.purpose, now);
    await trx.updateTable('codes').set({ code_hash: codeHash }).where('id', '=', id).execute();
    return code;
  }

  /** Draws codes until one's hash is held by no live code of the purpose. */
  private async unusedCode(trx: DB, purpose: CodePurpose, now: number) {
    for (;;) {
      const code = randomDigits(CODE_LENGTH);
      const codeHash = this.hash(purpose, code);
      // An expired code may still hold this hash; it no longer counts, so it makes room.
      await trx
        .deleteFrom('codes')
        .where('purpose', '=', purpose)
        .where('code_hash', '=', codeHash)
        .where('expires_at', '<=', now)
        .execute();
      const clash = await trx
        .selectFrom('codes')
        .select('id')
        .where('purpose', '=', purpose)
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      if (!clash) return { code, codeHash };
    }
  }

  /**
   * Checks a code sent with the e-mail it belongs to, in the caller's transaction. Past the
   * account's budget the answer is 'account-budget' without looking. A wrong try counts against
   * the code (burnt at the fifth) and the account; a right one, with `consume`, is deleted, so two
   * requests cannot both use it.
   */
  async checkForUser(
    trx: DB,
    userId: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<CodeCheck> {
    await lockBudget(trx, accountScope(userId, purpose));
    const now = this.clock.now();
    const wait = await accountBudgetWait(trx, userId, purpose, now);
    if (wait !== undefined) return { ok: false, reason: 'account-budget', retryAfter: wait };
    const row = await trx
      .selectFrom('codes')
      .select(['id', 'code_hash'])
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return INVALID;
    if (!safeEqual(row.code_hash, this.hash(purpose, code))) {
      if (await this.countWrongTry(trx, row.id)) {
        await recordAccountFailures(trx, [userId], purpose, now);
      }
      return INVALID;
    }
    if (consume && !(await this.consume(trx, row.id))) return INVALID;
    return { ok: true, userId };
  }

  /**
   * Checks a code sent without its e-mail, in the caller's transaction. A bare guess is a
   * guess at every live code of the purpose at once, so it is budgeted globally by that number
   * (past the budget the answer is 'bare-budget' without looking), and a failure also counts as a
   * wrong try against each of those accounts: the bare form is no way around their budgets. It
   * does not count against the codes themselves, or a few bare guesses would burn everyone's.
   */
  async checkBare(
    trx: DB,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<CodeCheck> {
    await lockBudget(trx, bareScope(purpose));
    const now = this.clock.now();
    // Past BARE_WEIGHT_PER_WINDOW live codes no guess fits, so there is no need to read more.
    const live = await trx
      .selectFrom('codes')
      .select(['id', 'user_id', 'code_hash'])
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .limit(BARE_WEIGHT_PER_WINDOW + 1)
      .execute();
    if (live.length > BARE_WEIGHT_PER_WINDOW) {
      return {
        ok: false,
        reason: 'bare-budget',
        retryAfter: await this.untilOneExpires(trx, purpose),
      };
    }
    const weight = Math.max(live.length, 1);
    const wait = await bareBudgetWait(trx, purpose, weight, now);
    if (wait !== undefined) return { ok: false, reason: 'bare-budget', retryAfter: wait };

    // In one order everywhere, so two bare checks cannot wait on each other's account locks.
    const userIds = [...new Set(live.map((row) => row.user_id))].sort();
    for (const userId of userIds) await lockBudget(trx, accountScope(userId, purpose));
    const spent = await accountsSpent(trx, userIds, purpose, now);
    const hash = this.hash(purpose, code);
    const match = live.find((row) => !spent.has(row.user_id) && safeEqual(row.code_hash, hash));
    if (match && (!consume || (await this.consume(trx, match.id)))) {
      return { ok: true, userId: match.user_id };
    }
    await recordBareFailure(trx, purpose, weight, now);
    const triedOn = userIds.filter((userId) => !spent.has(userId));
    await recordAccountFailures(trx, triedOn, purpose, now);
    return INVALID;
  }

  /**
   * Counts a wrong try against the code, and deletes it at the last allowed one. Conditional, so
   * that parallel tries never count past the limit; false when the code was already gone.
   */
  private async countWrongTry(trx: DB, id: string): Promise<boolean> {
    const counted = await trx
      .updateTable('codes')
      .set({ failed_attempts: (eb) => eb('failed_attempts', '+', 1) })
      .where('id', '=', id)
      .where('failed_attempts', '<', CODE_MAX_TRIES)
      .returning('failed_attempts')
      .executeTakeFirst();
    if (counted && counted.failed_attempts >= CODE_MAX_TRIES) {
      await trx.deleteFrom('codes').where('id', '=', id).execute();
    }
    return counted !== undefined;
  }

  /** Seconds until the live code of this purpose that expires first does. */
  private async untilOneExpires(trx: DB, purpose: CodePurpose): Promise<number> {
    const now = this.clock.now();
    const first = await trx
      .selectFrom('codes')
      .select((eb) => eb.fn.min('expires_at').as('at'))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const at = first?.at == null ? now : Number(first.at);
    return Math.max(1, Math.ceil((at - now) / 1000));
  }

  private async consume(trx: DB, id: string): Promise<boolean> {
    const result = await trx.deleteFrom('codes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}

/**
 * Deletes the user's live codes (of one purpose): they were mailed to an address the account no
 * longer has, or wants no more.
 */
export async function deleteCodes(db: DB, userId: string, purpose?: CodePurpose): Promise<void> {
  await db
    .deleteFrom('codes')
    .where('user_id', '=', userId)
    .$if(purpose !== undefined, (query) => query.where('purpose', '=', purpose!))
    .execute();
}

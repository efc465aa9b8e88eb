import { randomUUID } from 'node:crypto';
import { CODE_LENGTH, CODE_MAX_TRIES, CODE_TTL_MINUTES } from '../../shared/constants.js';
import type { DB } from '../db/index.js';
import type { CodePurpose } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { keyedHash, randomDigits, safeEqual } from '../lib/secrets.js';

const CODE_TTL_MS = CODE_TTL_MINUTES * 60_000;
const HOUR_MS = 3_600_000;
const CODE_SPACE = 10 ** CODE_LENGTH;
/** The chance that any bare guess hits some live code must stay below this, per hour. */
const MAX_HIT_CHANCE_PER_HOUR = 1 / 10_000;
/** Do not mail a fresh code more often than this per account and purpose. */
export const CODE_RESEND_INTERVAL_MS = 60_000;

export type CodeCheck = { ok: true; userId: string } | { ok: false; reason: 'invalid' | 'budget' };

/**
 * Six-digit codes (docs/decisions/003-code-protection.md): stored only as a keyed hash, one live
 * code per user and purpose, 10 minutes, single use, burnt after 5 wrong tries when the e-mail is
 * known, and a global budget for guesses that come without an e-mail.
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
    const now = this.clock.now();
    await trx
      .deleteFrom('codes')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .execute();
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
      if (clash) continue;
      await trx
        .insertInto('codes')
        .values({
          id: randomUUID(),
          user_id: userId,
          purpose,
          code_hash: codeHash,
          expires_at: now + CODE_TTL_MS,
          failed_attempts: 0,
          created_at: now,
        })
        .execute();
      return code;
    }
  }

  /** When the user's live code of this purpose was issued, if there is one. */
  async issuedAt(db: DB, userId: string, purpose: CodePurpose): Promise<number | undefined> {
    const row = await db
      .selectFrom('codes')
      .select('created_at')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row?.created_at;
  }

  /**
   * Checks a code sent with the e-mail it belongs to. With `consume`, a right code is deleted in
   * the caller's transaction, so two requests cannot both use it. A wrong one counts a try.
   */
  async checkForUser(
    trx: DB,
    userId: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<CodeCheck> {
    const now = this.clock.now();
    const row = await trx
      .selectFrom('codes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.expires_at <= now) return { ok: false, reason: 'invalid' };
    if (!safeEqual(row.code_hash, this.hash(purpose, code))) {
      if (row.failed_attempts + 1 >= CODE_MAX_TRIES) {
        await trx.deleteFrom('codes').where('id', '=', row.id).execute();
      } else {
        await trx
          .updateTable('codes')
          .set({ failed_attempts: (eb) => eb('failed_attempts', '+', 1) })
          .where('id', '=', row.id)
          .execute();
      }
      return { ok: false, reason: 'invalid' };
    }
    if (consume && !(await this.consume(trx, row.id))) return { ok: false, reason: 'invalid' };
    return { ok: true, userId };
  }

  /**
   * Checks a code sent alone (the spec's form). Guesses are spread over every live code, so they
   * are budgeted globally: past the budget the answer is 'budget' (429) without looking.
   */
  async checkBare(
    trx: DB,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<CodeCheck> {
    const now = this.clock.now();
    if (await this.bareBudgetSpent(trx, purpose, now)) return { ok: false, reason: 'budget' };
    const row = await trx
      .selectFrom('codes')
      .select(['id', 'user_id'])
      .where('purpose', '=', purpose)
      .where('code_hash', '=', this.hash(purpose, code))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row || (consume && !(await this.consume(trx, row.id)))) {
      await this.recordBareFailure(trx, purpose, now);
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, userId: row.user_id };
  }

  /** Seconds until the oldest counted failure leaves the one-hour window. */
  async bareRetryAfterSeconds(db: DB, purpose: CodePurpose): Promise<number> {
    const now = this.clock.now();
    const oldest = await db
      .selectFrom('code_failures')
      .select((eb) => eb.fn.min('at').as('at'))
      .where('purpose', '=', purpose)
      .where('at', '>', now - HOUR_MS)
      .executeTakeFirst();
    const at = oldest?.at == null ? now : Number(oldest.at);
    return Math.max(1, Math.ceil((at + HOUR_MS - now) / 1000));
  }

  private async consume(trx: DB, id: string): Promise<boolean> {
    const result = await trx.deleteFrom('codes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * With L live codes, one guess hits with chance L / 10^6, so the hour's budget of failures is
   * 10^6 × 10^-4 / L = 100 / L: one live code allows 100 wrong guesses an hour, 101 allow none.
   */
  private async bareBudgetSpent(db: DB, purpose: CodePurpose, now: number): Promise<boolean> {
    const [live, failures] = await Promise.all([
      db
        .selectFrom('codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('code_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('purpose', '=', purpose)
        .where('at', '>', now - HOUR_MS)
        .executeTakeFirstOrThrow(),
    ]);
    const budget = Math.floor((CODE_SPACE * MAX_HIT_CHANCE_PER_HOUR) / Math.max(Number(live.n), 1));
    return Number(failures.n) >= budget;
  }

  private async recordBareFailure(db: DB, purpose: CodePurpose, now: number) {
    await db
      .deleteFrom('code_failures')
      .where('at', '<=', now - HOUR_MS)
      .execute();
    await db.insertInto('code_failures').values({ purpose, at: now }).execute();
  }
}

import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { RECOVERY_CODE_COUNT } from '../../../../shared/two-factor.js';
import type { DB } from '../../../infra/db/handle.js';
import { keyedHash } from '../../../lib/secrets.js';

/** No 0/o, 1/l/i: a code copied by hand reads one way. 31 symbols, 10 of them: 49 bits. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

const draw = () =>
  Array.from({ length: GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Case, spaces and dashes do not matter: "K7M2P X9Q4T" is "k7m2p-x9q4t". */
const normalize = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * One-time recovery codes, for when the authenticator is not at hand. Stored as keyed hashes only;
 * each works once (the update that spends it is conditional, so two requests cannot both use it).
 */
export class RecoveryCodes {
  constructor(private readonly secret: string) {}

  private hash(code: string) {
    return keyedHash(this.secret, 'recovery-code', normalize(code));
  }

  /** Replaces the account's codes with new ones and returns them, as shown to the owner once. */
  async issue(trx: DB, userId: string, now: number): Promise<string[]> {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => `${draw()}-${draw()}`);
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          id: randomUUID(),
          user_id: userId,
          code_hash: this.hash(code),
          used_at: null,
          created_at: now,
        })),
      )
      .execute();
    return codes;
  }

  /** Spends the code if it is one of the account's unused ones. */
  async use(trx: DB, userId: string, code: string, now: number): Promise<boolean> {
    const result = await trx
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', this.hash(code))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async left(db: DB, userId: string): Promise<number> {
    const row = await db
      .selectFrom('recovery_codes')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async removeAll(trx: DB, userId: string) {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  }
}

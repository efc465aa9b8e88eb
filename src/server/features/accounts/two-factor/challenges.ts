import { CODE_MAX_TRIES } from '../../../../shared/constants.js';
import { SIGN_IN_CHALLENGE_MINUTES } from '../../../../shared/two-factor.js';
import type { DB } from '../../../infra/db/handle.js';
import type { SignInChallengePurpose } from '../../../infra/db/schema-accounts.js';
import { randomToken, sha256 } from '../../../lib/secrets.js';

const TTL_MS = SIGN_IN_CHALLENGE_MINUTES * 60_000;

export interface Challenge {
  idHash: string;
  userId: string | null;
  webauthnChallenge: string | null;
}

/**
 * Sign-ins and passkey registrations in progress. The id handed out is a random token kept only as
 * its hash: after the password step it stands for the password for a few minutes, so a copy of
 * the table must not be usable. A challenge is used once, and burnt after 5 wrong codes.
 */
export const challenges = {
  async create(
    db: DB,
    now: number,
    purpose: SignInChallengePurpose,
    userId: string | null,
    webauthnChallenge: string | null = null,
  ): Promise<string> {
    // The expired ones of every account go as new ones come: the table stays as small as its use.
    await db.deleteFrom('sign_in_challenges').where('expires_at', '<=', now).execute();
    const id = randomToken();
    await db
      .insertInto('sign_in_challenges')
      .values({
        id_hash: sha256(id),
        purpose,
        user_id: userId,
        webauthn_challenge: webauthnChallenge,
        expires_at: now + TTL_MS,
      })
      .execute();
    return id;
  },

  /** A live challenge of this purpose, or undefined. */
  async find(
    db: DB,
    id: string,
    purpose: SignInChallengePurpose,
    now: number,
  ): Promise<Challenge | undefined> {
    const row = await db
      .selectFrom('sign_in_challenges')
      .select(['id_hash', 'user_id', 'webauthn_challenge'])
      .where('id_hash', '=', sha256(id))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .where('failed_attempts', '<', CODE_MAX_TRIES)
      .executeTakeFirst();
    return (
      row && { idHash: row.id_hash, userId: row.user_id, webauthnChallenge: row.webauthn_challenge }
    );
  },

  async setWebauthnChallenge(db: DB, idHash: string, webauthnChallenge: string) {
    await db
      .updateTable('sign_in_challenges')
      .set({ webauthn_challenge: webauthnChallenge })
      .where('id_hash', '=', idHash)
      .execute();
  },

  /** Counts a wrong try; the fifth burns the challenge. Conditional, so parallel tries cannot pass it. */
  async countWrongTry(db: DB, idHash: string) {
    const counted = await db
      .updateTable('sign_in_challenges')
      .set({ failed_attempts: (eb) => eb('failed_attempts', '+', 1) })
      .where('id_hash', '=', idHash)
      .where('failed_attempts', '<', CODE_MAX_TRIES)
      .returning('failed_attempts')
      .executeTakeFirst();
    if (counted && counted.failed_attempts >= CODE_MAX_TRIES) {
      await db.deleteFrom('sign_in_challenges').where('id_hash', '=', idHash).execute();
    }
  },

  /** Uses the challenge up: false when another request did first. */
  async consume(db: DB, idHash: string): Promise<boolean> {
    const result = await db
      .deleteFrom('sign_in_challenges')
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};

import { keepOnSuccess } from '../../../../shared/keep-on-success.js';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../../../../shared/two-factor.js';
import type { DB } from '../../../infra/db/handle.js';
import { seal, unseal } from '../../../lib/sealed.js';

const otpauth = keepOnSuccess(() => import('otpauth'));

const ISSUER = 'Stockroom';
const SEAL_USE = 'totp-secret';
/** Codes of the step before and after the current one are accepted too: clocks drift, people type. */
const WINDOW = 1;

const settings = { algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS } as const;

/**
 * An account's authenticator app (RFC 6238: SHA-1, 6 digits, 30 s). Set-up keeps a pending secret
 * until a first code proves the app has it; from then on a code is accepted once at most: the step
 * it belongs to must be later than the last one accepted.
 */
export class Totp {
  /**
   * `unreadable` is told of a stored secret this server's key does not open (APP_SECRET changed,
   * or a restore without DATA_DIR/secret.key): the operator's to fix, so it is logged.
   */
  constructor(
    private readonly appSecret: string,
    private readonly unreadable: (userId: string) => void = () => {},
  ) {}

  /** Whether the account has a confirmed authenticator. */
  async isOn(db: DB, userId: string): Promise<boolean> {
    const row = await db
      .selectFrom('user_totp')
      .select('confirmed_at')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.confirmed_at != null;
  }

  /**
   * A new pending secret for the account (replacing a pending one), or 'on' when it has a
   * confirmed one already.
   */
  async begin(db: DB, userId: string, label: string, now: number) {
    const { Secret, TOTP } = await otpauth();
    const secret = new Secret({ size: 20 });
    const sealed = seal(this.appSecret, SEAL_USE, secret.base32);
    const result = await db
      .insertInto('user_totp')
      .values({ user_id: userId, secret_sealed: sealed, confirmed_at: null, created_at: now })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_sealed: sealed, created_at: now, last_step: 0 })
          .where('user_totp.confirmed_at', 'is', null),
      )
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 1) === 0) return 'on' as const;
    const otpauthUrl = new TOTP({ issuer: ISSUER, label, secret, ...settings }).toString();
    return { secret: secret.base32, otpauthUrl };
  }

  /**
   * Checks a code against the account's secret, pending or confirmed as asked, and records its
   * step so that it is never accepted again. 'absent' when there is no such secret.
   */
  async check(
    trx: DB,
    userId: string,
    code: string,
    now: number,
    state: 'pending' | 'confirmed',
  ): Promise<'ok' | 'wrong' | 'absent'> {
    const row = await trx
      .selectFrom('user_totp')
      .select(['secret_sealed', 'confirmed_at', 'last_step'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || (row.confirmed_at === null) !== (state === 'pending')) return 'absent';
    const base32 = this.open(userId, row.secret_sealed);
    // A secret that does not open checks no code: as if there were none. A set-up waiting for its
    // first code must start again (409); at sign-in the code is wrong, as any code would be, and
    // counts as one: the answer tells no one more than a wrong code does, and never a 500.
    if (base32 === undefined) return 'absent';
    const { Secret, TOTP } = await otpauth();
    const secret = Secret.fromBase32(base32);
    const delta = TOTP.validate({
      token: code,
      secret,
      timestamp: now,
      window: WINDOW,
      ...settings,
    });
    if (delta === null) return 'wrong';
    const step = TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
    // Conditional: of two requests with one code, one moves the step and the other finds it moved.
    const used = await trx
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? 'ok' : 'wrong';
  }

  private open(userId: string, sealed: string): string | undefined {
    try {
      return unseal(this.appSecret, SEAL_USE, sealed);
    } catch {
      this.unreadable(userId);
      return undefined;
    }
  }

  async confirm(trx: DB, userId: string, now: number) {
    await trx
      .updateTable('user_totp')
      .set({ confirmed_at: now })
      .where('user_id', '=', userId)
      .execute();
  }

  async remove(trx: DB, userId: string) {
    await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
  }
}

import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_TRIES_PER_WINDOW,
  ACCOUNT_WINDOW_MS,
  secondsUntilRoom,
} from '../../../src/server/features/accounts/code-budgets.js';
import { CodeChecks } from '../../../src/server/features/accounts/code-checks.js';
import { Codes } from '../../../src/server/features/accounts/codes.js';
import { verifyPassword } from '../../../src/server/features/accounts/passwords.js';
import { createSession } from '../../../src/server/features/accounts/sessions.js';
import {
  findUserById,
  insertUser,
  updateUser,
} from '../../../src/server/features/accounts/users.js';
import type { CodePurpose } from '../../../src/server/infra/db/schema-accounts.js';
import { CODE_MAX_TRIES, CODE_TTL_MINUTES } from '../../../src/shared/constants.js';
import { newEmail, NEW_PASSWORD, otherCode } from '../support/accounts.js';
import { build } from '../support/build.js';

const INVALID = { ok: false, reason: 'invalid' };

/** A test server and CodeChecks over its database, clock, secret and outbox. */
async function codeChecksOnRealDatabase() {
  const server = await build();
  const { db } = server.database;
  const { clock } = server;
  const codes = new Codes(server.config.appSecret, clock);
  const checks = new CodeChecks({
    db,
    clock,
    codes,
    outbox: server.app.outbox,
    publicUrl: server.config.publicUrl,
  });
  return { server, db, clock, codes, checks };
}

describe('the code-checking flows (CodeChecks), against a real database', async () => {
  const { db, clock, codes, checks } = await codeChecksOnRealDatabase();

  async function user(confirmed: 0 | 1) {
    const email = newEmail('checks');
    const id = await insertUser(db, { name: 'Checks', email, passwordHash: 'none' }, clock.now());
    if (confirmed) await updateUser(db, id, { confirmed }, clock.now());
    return { id, email };
  }
  const issue = (userId: string, purpose: CodePurpose) => codes.issue(db, userId, purpose);
  const counted = async (userId: string, purpose: CodePurpose) =>
    Number(
      (
        await db
          .selectFrom('account_code_failures')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .where('at', '>', clock.now() - ACCOUNT_WINDOW_MS)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('confirmAccount', () => {
    it('confirms with the code and the e-mail, once', async () => {
      const { id, email } = await user(0);
      const code = await issue(id, 'confirm');
      expect(await checks.confirmAccount(code, email)).toEqual({ ok: true, userId: id });
      expect(await findUserById(db, id)).toMatchObject({ confirmed: 1 });
      expect(await checks.confirmAccount(code, email)).toEqual(INVALID);
      expect(await checks.confirmAccount(code)).toEqual(INVALID);
    });

    it('confirms with the bare code', async () => {
      const { id } = await user(0);
      expect(await checks.confirmAccount(await issue(id, 'confirm'))).toEqual({
        ok: true,
        userId: id,
      });
    });

    it('an unknown e-mail, a reset code or an expired code confirms nothing', async () => {
      const { id, email } = await user(0);
      const code = await issue(id, 'confirm');
      expect(await checks.confirmAccount(code, newEmail('nobody'))).toEqual(INVALID);
      expect(await checks.confirmAccount(await issue(id, 'reset'), email)).toEqual(INVALID);
      clock.advance(CODE_TTL_MINUTES * 60_000);
      expect(await checks.confirmAccount(code, email)).toEqual(INVALID);
      expect(await findUserById(db, id)).toMatchObject({ confirmed: 0 });
    });
  });

  describe('validateResetCode and resetPassword', () => {
    it('validation leaves the code usable; the reset sets the password, confirms, signs out and mails', async () => {
      const { id, email } = await user(0);
      await createSession(db, clock, id);
      const sessions = () => db.selectFrom('sessions').select('id').where('user_id', '=', id);
      expect(await sessions().execute()).toHaveLength(1);
      const code = await issue(id, 'reset');
      expect(await checks.validateResetCode(code, email)).toEqual({ ok: true, userId: id });
      expect(await checks.validateResetCode(code)).toEqual({ ok: true, userId: id });

      expect(await checks.resetPassword(code, NEW_PASSWORD, email)).toEqual({
        ok: true,
        userId: id,
      });
      const stored = await findUserById(db, id);
      expect(await verifyPassword(stored!.password_hash, NEW_PASSWORD)).toBe(true);
      // The code proved the mailbox: an unconfirmed account is confirmed by the reset.
      expect(stored).toMatchObject({ confirmed: 1 });
      expect(await sessions().execute()).toEqual([]);
      const mail = await db
        .selectFrom('outbox')
        .select('subject')
        .where('recipient', '=', email)
        .execute();
      expect(mail).toEqual([{ subject: 'Your Stockroom password was changed' }]);

      expect(await checks.validateResetCode(code, email)).toEqual(INVALID);
    });

    it('a wrong code changes nothing', async () => {
      const { id, email } = await user(1);
      const code = await issue(id, 'reset');
      expect(await checks.resetPassword(otherCode(code), NEW_PASSWORD, email)).toEqual(INVALID);
      expect(await findUserById(db, id)).toMatchObject({ password_hash: 'none' });
    });
  });

  describe(`${CODE_MAX_TRIES} wrong tries per code`, () => {
    it('the fifth burns it; each counts against the account', async () => {
      const { id, email } = await user(1);
      const code = await issue(id, 'reset');
      for (let i = 0; i < CODE_MAX_TRIES; i++) {
        expect(await checks.validateResetCode(otherCode(code), email)).toEqual(INVALID);
      }
      expect(await counted(id, 'reset')).toBe(CODE_MAX_TRIES);
      expect(await checks.validateResetCode(code, email)).toEqual(INVALID);
      // Tries at a code that is gone are not tries at anything: they do not count.
      expect(await counted(id, 'reset')).toBe(CODE_MAX_TRIES);
    });

    it('20 parallel wrong tries count exactly 5', async () => {
      const { id, email } = await user(0);
      const code = await issue(id, 'confirm');
      const guesses = Array.from({ length: 20 }, (_, i) =>
        String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'),
      );
      const results = await Promise.all(guesses.map((g) => checks.confirmAccount(g, email)));
      expect(results).toEqual(guesses.map(() => INVALID));
      expect(await counted(id, 'confirm')).toBe(CODE_MAX_TRIES);
      expect(await checks.confirmAccount(code, email)).toEqual(INVALID);
    });
  });

  describe(`${ACCOUNT_TRIES_PER_WINDOW} wrong tries per account and purpose in 24 hours`, () => {
    it('then account-budget with the seconds until the oldest try leaves the window', async () => {
      const { id, email } = await user(1);
      const start = clock.now();
      for (let i = 0; i < ACCOUNT_TRIES_PER_WINDOW; i++) {
        if (i % CODE_MAX_TRIES === 0) clock.advance(60_000);
        const code = await issue(id, 'reset');
        expect(await checks.validateResetCode(otherCode(code), email)).toEqual(INVALID);
      }
      const firstTry = start + 60_000;
      const code = await issue(id, 'reset');
      const spent = {
        ok: false,
        reason: 'account-budget',
        retryAfter: Math.ceil((firstTry + ACCOUNT_WINDOW_MS - clock.now()) / 1000),
      };
      expect(await checks.validateResetCode(code, email)).toEqual(spent);
      expect(await checks.resetPassword(code, NEW_PASSWORD, email)).toEqual(spent);
      // The bare form does not match this account's code any more either.
      expect(await checks.validateResetCode(code)).toEqual(INVALID);
      // The other purpose has its own budget.
      await updateUser(db, id, { confirmed: 0 }, clock.now());
      const confirmCode = await issue(id, 'confirm');
      expect(await checks.confirmAccount(confirmCode, email)).toEqual({ ok: true, userId: id });

      clock.advance(spent.retryAfter * 1000);
      const fresh = await issue(id, 'reset');
      expect(await checks.validateResetCode(fresh, email)).toEqual({ ok: true, userId: id });
    });
  });

  it('a code check outside a transaction is refused, not silently unguarded', async () => {
    const { id } = await user(1);
    await expect(codes.checkForUser(db, id, 'reset', '123456', false)).rejects.toThrow(
      /transaction/,
    );
  });
});

describe('the bare-code budget (CodeChecks)', async () => {
  const { db, clock, codes, checks } = await codeChecksOnRealDatabase();
  const liveCodes = async (n: number) => {
    const issued: string[] = [];
    for (let i = 0; i < n; i++) {
      const email = newEmail('bare');
      const id = await insertUser(db, { name: 'B', email, passwordHash: 'x' }, clock.now());
      issued.push(await codes.issue(db, id, 'confirm'));
    }
    return issued;
  };
  const wrong = (avoid: string[], n: number) => {
    const taken = new Set(avoid);
    const out: string[] = [];
    for (let g = 0; out.length < n; g++) {
      const guess = String(g).padStart(6, '0');
      if (!taken.has(guess)) out.push(guess);
    }
    return out;
  };

  it('4 live codes: 25 failures an hour in parallel, the rest bare-budget; then the window moves', async () => {
    const live = await liveCodes(4);
    const results = await Promise.all(wrong(live, 40).map((g) => checks.confirmAccount(g)));
    expect(results.filter((r) => !r.ok && r.reason === 'invalid')).toHaveLength(25);
    expect(results.filter((r) => !r.ok && r.reason === 'bare-budget')).toHaveLength(15);
    expect(await checks.confirmAccount(live[0]!)).toEqual({
      ok: false,
      reason: 'bare-budget',
      retryAfter: 3600,
    });
    clock.advance(3_600_000);
    // The codes expired meanwhile: one failure (weight at least 1) fits again.
    expect(await checks.confirmAccount('000000')).toEqual(INVALID);
  });

  it('more than 100 live codes: no bare try fits; retry when the first of them expires', async () => {
    clock.advance(3_600_000);
    await liveCodes(60);
    clock.advance(60_000);
    await liveCodes(41);
    expect(await checks.confirmAccount('000000')).toEqual({
      ok: false,
      reason: 'bare-budget',
      retryAfter: CODE_TTL_MINUTES * 60 - 60,
    });
  });
});

describe('secondsUntilRoom', () => {
  const now = 10_000_000;
  const window = 3_600_000;
  const at = (msAgo: number, weight = 1) => ({ at: now - msAgo, weight });

  it('fits: undefined', () => {
    expect(secondsUntilRoom([at(1000, 50)], 50, 100, window, now)).toBeUndefined();
  });

  it('waits for as many of the oldest failures as must leave', () => {
    const failures = [at(3_000_000, 40), at(2_000_000, 40), at(1_000_000, 20)];
    expect(secondsUntilRoom(failures, 1, 100, window, now)).toBe(600);
    expect(secondsUntilRoom(failures, 41, 100, window, now)).toBe(1600);
  });

  it('never fits: Infinity', () => {
    expect(secondsUntilRoom([], 101, 100, window, now)).toBe(Infinity);
  });
});

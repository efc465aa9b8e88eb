import { describe, expect, it } from 'vitest';
import { CODE_RESEND_INTERVAL_MS } from '../../../../src/server/features/accounts/codes.js';
import { CODE_MAX_TRIES, CODE_TTL_MINUTES } from '../../../../src/shared/constants.js';
import { M } from '../../../../src/shared/messages.js';
import {
  accounts,
  expectMessage,
  NEW_PASSWORD,
  otherCode,
  PASSWORD,
  userRow,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';

const CODE_TTL_MS = CODE_TTL_MINUTES * 60_000;

describe('six-digit codes', async () => {
  const server = await build();
  const steps = accounts(server);

  /** An unconfirmed account and its confirmation code. */
  async function pending() {
    const account = await steps.signUp();
    return { ...account, code: await steps.codeFor(account.email) };
  }

  /** A confirmed account and a password-reset code. */
  async function resetting() {
    const account = await steps.signedIn();
    await steps.forgot(account.email);
    return { ...account, code: await steps.codeFor(account.email) };
  }

  it('a confirmation code lasts 10 minutes', async () => {
    const early = await pending();
    const late = await pending();
    server.clock.advance(CODE_TTL_MS - 1);
    expectMessage(await steps.confirmWith(early.code, early.email), 200, M.accountConfirmed);
    server.clock.advance(1);
    expectMessage(await steps.confirmWith(late.code, late.email), 400, M.codeInvalid);
    expectMessage(await steps.confirmWith(late.code), 400, M.codeInvalid);
    expect(await userRow(server, late.email)).toMatchObject({ confirmed: 0 });
  });

  it('an expired reset code neither validates nor resets', async () => {
    const { email, code } = await resetting();
    server.clock.advance(CODE_TTL_MS + 1);
    expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
    expectMessage(await steps.validate(code), 400, M.codeInvalid);
    expectMessage(await steps.reset(code, NEW_PASSWORD, email), 400, M.codeInvalid);
    await steps.login(email, PASSWORD);
  });

  it('a confirmation code works once', async () => {
    const { email, code } = await pending();
    expectMessage(await steps.confirmWith(code, email), 200, M.accountConfirmed);
    expectMessage(await steps.confirmWith(code, email), 400, M.codeInvalid);
    expectMessage(await steps.confirmWith(code), 400, M.codeInvalid);
  });

  it('a reset code works once', async () => {
    const { email, code } = await resetting();
    expectMessage(await steps.reset(code, NEW_PASSWORD, email), 200, M.passwordReset);
    expectMessage(await steps.reset(code, 'third-Password-3', email), 400, M.codeInvalid);
    expectMessage(await steps.reset(code, 'third-Password-3'), 400, M.codeInvalid);
    expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
    await steps.login(email, NEW_PASSWORD);
  });

  it('a code is consumed atomically: of concurrent resets with it, exactly one wins', async () => {
    const { email, code } = await resetting();
    const passwords = ['race-Password-1', 'race-Password-2', 'race-Password-3', 'race-Password-4'];
    const answers = await Promise.all(passwords.map((p) => steps.reset(code, p, email)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(passwords.length - 1);
    const winner = passwords[statuses.indexOf(200)]!;
    await steps.login(email, winner);
  });

  it('a confirmation code never validates or resets a password, and a reset code never confirms', async () => {
    const { email, code: confirmCode } = await pending();
    await steps.forgot(email);
    const resetCode = await steps.codeFor(email);

    expectMessage(await steps.validate(confirmCode, email), 400, M.codeInvalid);
    expectMessage(await steps.validate(confirmCode), 400, M.codeInvalid);
    expectMessage(await steps.reset(confirmCode, NEW_PASSWORD), 400, M.codeInvalid);
    expectMessage(await steps.confirmWith(resetCode, email), 400, M.codeInvalid);
    expectMessage(await steps.confirmWith(resetCode), 400, M.codeInvalid);
    expect(await userRow(server, email)).toMatchObject({ confirmed: 0 });

    // Both codes were live all along, each for its own purpose.
    expectMessage(await steps.validate(resetCode, email), 200, M.codeValid);
    expectMessage(await steps.confirmWith(confirmCode, email), 200, M.accountConfirmed);
    await steps.login(email, PASSWORD);
  });

  it(`${CODE_MAX_TRIES} wrong tries with the e-mail burn the confirmation code`, async () => {
    const { email, code } = await pending();
    for (let i = 0; i < CODE_MAX_TRIES; i++) {
      expectMessage(await steps.confirmWith(otherCode(code), email), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(code, email), 400, M.codeInvalid);
    expectMessage(await steps.confirmWith(code), 400, M.codeInvalid);
    expect(await userRow(server, email)).toMatchObject({ confirmed: 0 });
  });

  it(`${CODE_MAX_TRIES - 1} wrong tries leave the code usable`, async () => {
    const { email, code } = await pending();
    for (let i = 0; i < CODE_MAX_TRIES - 1; i++) {
      expectMessage(await steps.confirmWith(otherCode(code), email), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(code, email), 200, M.accountConfirmed);
  });

  it(`${CODE_MAX_TRIES} wrong tries burn a reset code too`, async () => {
    const { email, code } = await resetting();
    for (let i = 0; i < CODE_MAX_TRIES; i++) {
      expectMessage(await steps.validate(otherCode(code), email), 400, M.codeInvalid);
    }
    expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
    expectMessage(await steps.reset(code, NEW_PASSWORD, email), 400, M.codeInvalid);
    await steps.login(email, PASSWORD);
  });

  it('signing up again replaces the confirmation code', async () => {
    const first = await pending();
    await steps.signUp({ email: first.email });
    const second = await steps.codeFor(first.email);
    // (A fresh code repeats the old digits once in a million: then there is nothing to compare.)
    if (second !== first.code) {
      expectMessage(await steps.confirmWith(first.code, first.email), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(second, first.email), 200, M.accountConfirmed);
  });

  it('asking for a reset code again replaces the old one', async () => {
    const first = await resetting();
    server.clock.advance(CODE_RESEND_INTERVAL_MS);
    await steps.forgot(first.email);
    const second = await steps.codeFor(first.email);
    expect(steps.inbox.mailsTo(first.email).filter((m) => /Reset/.test(m.subject))).toHaveLength(2);
    if (second !== first.code) {
      expectMessage(await steps.validate(first.code, first.email), 400, M.codeInvalid);
    }
    expectMessage(await steps.validate(second, first.email), 200, M.codeValid);
  });

  it('stores codes only as keyed hashes', async () => {
    const { code, email } = await pending();
    const user = await userRow(server, email);
    const rows = await server.database.db
      .selectFrom('codes')
      .selectAll()
      .where('user_id', '=', user!.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});

describe('the budget of bare-code guesses', async () => {
  const server = await build();
  const steps = accounts(server);
  const BUDGET_ONE_LIVE_CODE = 100;

  it('past 100 failures an hour (one live code) bare guesses get 429 and e-mail-bound ones still work', async () => {
    const { email } = await steps.signUp();
    const code = await steps.codeFor(email);
    let guess = code;
    for (let i = 0; i < BUDGET_ONE_LIVE_CODE; i++) {
      guess = otherCode(guess);
      expectMessage(await steps.confirmWith(guess), 400, M.codeInvalid);
    }

    const spent = await steps.confirmWith(otherCode(guess));
    expectMessage(spent, 429, M.tooManyCodeAttempts);
    expect(spent.headers['retry-after']).toBe('3600');
    // Past the budget the server does not even look: the right code gets 429 too when bare.
    expectMessage(await steps.confirmWith(code), 429, M.tooManyCodeAttempts);

    // Reset codes have their own budget.
    expectMessage(await steps.validate(code), 400, M.codeInvalid);

    // What the app sends (the e-mail with the code) is not held back by the bare budget…
    const other = await steps.signUp();
    const otherAccountsCode = await steps.codeFor(other.email);
    expectMessage(await steps.confirmWith(otherAccountsCode), 429, M.tooManyCodeAttempts);
    expectMessage(await steps.confirmWith(otherAccountsCode, other.email), 200, M.accountConfirmed);
    // …but each of those bare failures was a try at the one live code: that account has had its
    // 100 tries for the day, whatever the form.
    expectMessage(await steps.confirmWith(code, email), 429, M.tooManyCodeAttempts);

    // The window is an hour: after it, bare guesses are looked at again.
    server.clock.advance(30 * 60_000);
    const later = await steps.confirmWith('123456');
    expectMessage(later, 429, M.tooManyCodeAttempts);
    expect(later.headers['retry-after']).toBe(String(30 * 60));
    server.clock.advance(30 * 60_000);
    expectMessage(await steps.confirmWith('123456'), 400, M.codeInvalid);
  });

  it('the budget shrinks as live codes grow: 100 / live codes', async () => {
    server.clock.advance(60 * 60_000);
    const live = [await steps.signUp(), await steps.signUp()];
    await steps.inbox.fetch();
    const codes = new Set(live.map((account) => steps.inbox.codeFor(account.email)));
    let guess = '000000';
    const nextWrong = () => {
      do guess = otherCode(guess);
      while (codes.has(guess));
      return guess;
    };
    for (let i = 0; i < BUDGET_ONE_LIVE_CODE / live.length; i++) {
      expectMessage(await steps.confirmWith(nextWrong()), 400, M.codeInvalid);
    }
    expectMessage(await steps.confirmWith(nextWrong()), 429, M.tooManyCodeAttempts);
  });
});

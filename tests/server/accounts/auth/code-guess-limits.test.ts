import { describe, expect, it } from 'vitest';
import { Codes } from '../../../../src/server/features/accounts/codes.js';
import type { CodePurpose } from '../../../../src/server/infra/db/schema-accounts.js';
import { CODE_MAX_TRIES } from '../../../../src/shared/constants.js';
import { M } from '../../../../src/shared/messages.js';
import {
  accounts,
  accountSteps,
  expectMessage,
  httpClient,
  NEW_PASSWORD,
  otherCode,
  userRow,
  type AccountSteps,
  type ApiResponse,
} from '../../support/accounts.js';
import { build, type TestServer } from '../../support/build.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Wrong tries an account accepts per purpose in 24 hours, whatever the route. */
const ACCOUNT_LIMIT = 100;
/** Forgot-password mails an address at most once a minute and 5 times an hour: stay under both. */
const BETWEEN_FORGOTS_MS = 13 * MINUTE_MS;

/** `n` distinct well-formed codes, none of them in `avoid`. */
function wrongCodes(avoid: Iterable<string>, n: number): string[] {
  const taken = new Set(avoid);
  const guesses: string[] = [];
  let guess = '000000';
  while (guesses.length < n) {
    guess = otherCode(guess);
    if (!taken.has(guess)) guesses.push(guess);
  }
  return guesses;
}

const statuses = (answers: ApiResponse[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
};

/** The test's own handles on the server: accounts, fresh codes without mail, the stored counts. */
function fixtures(server: TestServer, steps: AccountSteps) {
  const { db } = server.database;
  const codes = new Codes(server.config.appSecret, server.clock);
  return {
    /** A confirmed account and its id. */
    async account() {
      const account = await steps.signedIn();
      return { ...account, id: (await userRow(server, account.email))!.id };
    },
    /** A fresh reset code for the user, as forgot-password would mail it. */
    freshCode: (userId: string, purpose: CodePurpose = 'reset') => codes.issue(db, userId, purpose),
    /** Wrong tries of the account counted in the last 24 hours. */
    async counted(userId: string, purpose: CodePurpose = 'reset') {
      const row = await db
        .selectFrom('account_code_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('at', '>', server.clock.now() - DAY_MS)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** The weight of the bare failures counted in the last hour. */
    async bareWeight(purpose: CodePurpose) {
      const row = await db
        .selectFrom('code_failures')
        .select((eb) => eb.fn.sum<number>('weight').as('w'))
        .where('purpose', '=', purpose)
        .where('at', '>', server.clock.now() - 60 * MINUTE_MS)
        .executeTakeFirstOrThrow();
      return Number(row.w ?? 0);
    },
  };
}

/** A wrong reset-code try with the e-mail, through one of the two routes that take one. */
const tryReset = (steps: AccountSteps, route: number, code: string, email: string) =>
  route % 2 === 0 ? steps.validate(code, email) : steps.reset(code, NEW_PASSWORD, email);

describe('parallel wrong tries against one code with the e-mail', async () => {
  const server = await build();
  const injected = accounts(server);
  const overHttp = accountSteps(
    httpClient(await server.app.listen({ port: 0, host: '127.0.0.1' })),
    injected.inbox,
  );
  const { account, freshCode, counted } = fixtures(server, injected);

  for (const [label, steps] of [
    ['inject', injected],
    ['real HTTP', overHttp],
  ] as const) {
    it(`${label}: of 20 at once exactly ${CODE_MAX_TRIES} count and the code is dead`, async () => {
      const { email, id } = await account();
      const code = await freshCode(id);
      const answers = await Promise.all(
        wrongCodes([code], 20).map((guess, i) => tryReset(steps, i, guess, email)),
      );
      expect(statuses(answers)).toEqual({ 400: 20 });
      expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
      expectMessage(await steps.reset(code, NEW_PASSWORD, email), 400, M.codeInvalid);
      expect(await counted(id)).toBe(CODE_MAX_TRIES);
    });

    it(`${label}: bursts of ${CODE_MAX_TRIES} to 12 wrong tries each leave the code dead`, async () => {
      const { email, id } = await account();
      for (let burst = CODE_MAX_TRIES; burst <= 12; burst++) {
        const code = await freshCode(id);
        await Promise.all(wrongCodes([code], burst).map((guess) => steps.validate(guess, email)));
        expectMessage(await steps.validate(code, email), 400, M.codeInvalid);
      }
    });

    it(`${label}: a confirmation code is burnt the same way`, async () => {
      const { email } = await steps.signUp();
      const code = await steps.codeFor(email);
      const answers = await Promise.all(
        wrongCodes([code], 20).map((guess) => steps.confirmWith(guess, email)),
      );
      expect(statuses(answers)).toEqual({ 400: 20 });
      expectMessage(await steps.confirmWith(code, email), 400, M.codeInvalid);
      expect(await counted((await userRow(server, email))!.id, 'confirm')).toBe(CODE_MAX_TRIES);
    });
  }
});

describe(`at most ${ACCOUNT_LIMIT} wrong tries per account and purpose in 24 hours`, async () => {
  const server = await build();
  const steps = accounts(server);
  const { account, freshCode, counted } = fixtures(server, steps);

  it('counts across routes and fresh codes; then 429 with Retry-After, even for the right code, until the window moves', async () => {
    const { email, id } = await account();
    let firstFailureAt: number | undefined;
    for (let round = 0; round < ACCOUNT_LIMIT / CODE_MAX_TRIES; round++) {
      server.clock.advance(BETWEEN_FORGOTS_MS);
      expectMessage(await steps.forgot(email), 200, M.forgotDone);
      const code = await steps.codeFor(email);
      firstFailureAt ??= server.clock.now();
      for (const [i, guess] of wrongCodes([code], CODE_MAX_TRIES).entries()) {
        expectMessage(await tryReset(steps, i + round, guess, email), 400, M.codeInvalid);
      }
    }
    expect(await counted(id)).toBe(ACCOUNT_LIMIT);

    server.clock.advance(BETWEEN_FORGOTS_MS);
    await steps.forgot(email);
    const code = await steps.codeFor(email);
    const retryAfter = String(Math.ceil((firstFailureAt! + DAY_MS - server.clock.now()) / 1000));
    for (const refused of [
      await steps.validate(code, email),
      await steps.reset(code, NEW_PASSWORD, email),
      await steps.validate(otherCode(code), email),
    ]) {
      expectMessage(refused, 429, M.tooManyCodeAttempts);
      expect(refused.headers['retry-after']).toBe(retryAfter);
    }
    // Without the e-mail the code is not matched either: the bare form is no way around the limit.
    expectMessage(await steps.validate(code), 400, M.codeInvalid);
    expect(await counted(id)).toBe(ACCOUNT_LIMIT);

    // A second before the oldest failure leaves the window: still refused.
    server.clock.advance(Number(retryAfter) * 1000 - 1000);
    await steps.forgot(email);
    const stillEarly = await steps.validate(await steps.codeFor(email), email);
    expectMessage(stillEarly, 429, M.tooManyCodeAttempts);
    expect(stillEarly.headers['retry-after']).toBe('1');

    server.clock.advance(1000);
    const fresh = await steps.codeFor(email);
    expectMessage(await steps.validate(fresh, email), 200, M.codeValid);
    expectMessage(await steps.reset(fresh, NEW_PASSWORD, email), 200, M.passwordReset);
    await steps.login(email, NEW_PASSWORD);
  });

  it('the purposes have separate budgets', async () => {
    const { email } = await steps.signUp();
    const id = (await userRow(server, email))!.id;
    for (let round = 0; round < ACCOUNT_LIMIT / CODE_MAX_TRIES; round++) {
      const code = await freshCode(id, 'reset');
      for (const guess of wrongCodes([code], CODE_MAX_TRIES)) {
        expectMessage(await steps.validate(guess, email), 400, M.codeInvalid);
      }
    }
    expectMessage(await steps.validate(await freshCode(id), email), 429, M.tooManyCodeAttempts);
    expectMessage(
      await steps.confirmWith(await freshCode(id, 'confirm'), email),
      200,
      M.accountConfirmed,
    );
  });

  it('150 wrong tries in parallel bursts over fresh codes count no more than 100', async () => {
    const { email, id } = await account();
    const answers: ApiResponse[] = [];
    for (let round = 0; round < 30; round++) {
      const code = await freshCode(id);
      answers.push(
        ...(await Promise.all(
          wrongCodes([code], CODE_MAX_TRIES).map((guess, i) => tryReset(steps, i, guess, email)),
        )),
      );
    }
    expect(statuses(answers)).toEqual({ 400: ACCOUNT_LIMIT, 429: 150 - ACCOUNT_LIMIT });
    expect(await counted(id)).toBe(ACCOUNT_LIMIT);
  });

  it('at the edge of the budget, 20 parallel tries at a fresh code count only what is left', async () => {
    const { email, id } = await account();
    const left = 3;
    let code = '';
    for (let tried = 0; tried < ACCOUNT_LIMIT - left; tried++) {
      if (tried % CODE_MAX_TRIES === 0) code = await freshCode(id);
      expectMessage(await steps.validate(otherCode(code), email), 400, M.codeInvalid);
    }
    code = await freshCode(id);
    const answers = await Promise.all(
      wrongCodes([code], 20).map((guess, i) => tryReset(steps, i, guess, email)),
    );
    expect(statuses(answers)).toEqual({ 400: left, 429: 20 - left });
    expect(await counted(id)).toBe(ACCOUNT_LIMIT);
    expectMessage(await steps.validate(code, email), 429, M.tooManyCodeAttempts);
  });
});

describe('the bare-code budget under concurrency', async () => {
  const server = await build();
  const steps = accounts(server);
  const { counted, bareWeight } = fixtures(server, steps);

  it('with 4 live codes, of 60 parallel bare wrong tries 25 are looked at (weight 4 each) and 35 get 429', async () => {
    const pending = [];
    for (let i = 0; i < 4; i++) pending.push(await steps.signUp());
    await steps.inbox.fetch();
    const live = pending.map((account) => steps.inbox.codeFor(account.email));
    const answers = await Promise.all(
      wrongCodes(live, 60).map((guess) => steps.confirmWith(guess)),
    );
    expect(statuses(answers)).toEqual({ 400: 25, 429: 35 });
    expect(await bareWeight('confirm')).toBe(100);
    // Each bare failure was a try at every live code: each account has those 25 against it.
    for (const account of pending) {
      expect(await counted((await userRow(server, account.email))!.id, 'confirm')).toBe(25);
    }
    // Past the budget, bare tries get 429, the right code too; with the e-mail it still works.
    expectMessage(await steps.confirmWith(live[0]!), 429, M.tooManyCodeAttempts);
    expectMessage(await steps.confirmWith(live[1]!, pending[1]!.email), 200, M.accountConfirmed);
  });
});

describe('bare tries count against the accounts they were tried on', async () => {
  const server = await build();
  const steps = accounts(server);
  const { account, freshCode, counted } = fixtures(server, steps);

  it(`${ACCOUNT_LIMIT} bare wrong tries at the only live code spend that account's budget`, async () => {
    const { email, id } = await account();
    const code = await freshCode(id);
    for (const guess of wrongCodes([code], ACCOUNT_LIMIT)) {
      expectMessage(await steps.validate(guess), 400, M.codeInvalid);
    }
    expect(await counted(id)).toBe(ACCOUNT_LIMIT);
    // The code itself is not burnt by bare tries (5 bare tries would otherwise burn every code)…
    const row = await server.database.db
      .selectFrom('codes')
      .select('failed_attempts')
      .where('user_id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ failed_attempts: 0 });
    // …but the account has had its 100 tries for the day.
    expectMessage(await steps.validate(code, email), 429, M.tooManyCodeAttempts);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  fingerprint,
  newEmail,
  NEW_PASSWORD,
  type Account,
  type ApiResponse,
} from '../support/accounts.js';
import { build } from '../support/build.js';
import { mannWhitney, median } from '../support/mann-whitney.js';

const WARM_UP_PAIRS = 10;
const PAIRS = 60;
/** Fail when timings this unlikely under "same distribution" are seen. */
const SIGNIFICANCE = 0.001;

/**
 * The account endpoints must not tell by their response time whether an address has an account.
 * Each test times 60 pairs of requests, one for an existing account and one for an unknown
 * address, interleaved and alternating which goes first (so load from elsewhere on the machine
 * falls on both sides alike), and compares the two samples with a Mann-Whitney U test.
 */
describe('response times that do not tell whether an account exists', async () => {
  const server = await build();
  const steps = accounts(server);
  let unconfirmed: Account;
  let confirmed: Account;

  beforeAll(async () => {
    unconfirmed = await steps.signUp({ name: 'Pending' });
    confirmed = await steps.signedIn({ name: 'Member' });
  });

  async function timed(send: () => Promise<ApiResponse>) {
    const start = process.hrtime.bigint();
    const res = await send();
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, res };
  }

  async function expectSameTimes(
    existing: () => Promise<ApiResponse>,
    unknown: () => Promise<ApiResponse>,
  ) {
    const samples = { existing: [] as number[], unknown: [] as number[] };
    for (let pair = 0; pair < WARM_UP_PAIRS + PAIRS; pair += 1) {
      // A minute between pairs: a throttle that spares repeated requests must not hide the work.
      server.clock.advance(61_000);
      const order =
        pair % 2 === 0 ? (['existing', 'unknown'] as const) : (['unknown', 'existing'] as const);
      const answers: Partial<Record<'existing' | 'unknown', ApiResponse>> = {};
      for (const side of order) {
        const { ms, res } = await timed(side === 'existing' ? existing : unknown);
        answers[side] = res;
        if (pair >= WARM_UP_PAIRS) samples[side].push(ms);
      }
      expect(fingerprint(answers.existing!)).toEqual(fingerprint(answers.unknown!));
    }
    const { p } = mannWhitney(samples.existing, samples.unknown);
    const summary =
      `median ${median(samples.existing).toFixed(3)} ms for an existing account, ` +
      `${median(samples.unknown).toFixed(3)} ms for an unknown address, p = ${p.toExponential(2)}`;
    expect(p, summary).toBeGreaterThanOrEqual(SIGNIFICANCE);
  }

  it('forgot-password', async () => {
    await expectSameTimes(
      () => steps.forgot(confirmed.email),
      () => steps.forgot(newEmail('unknown')),
    );
  });

  it('resend-confirmation', async () => {
    await expectSameTimes(
      () => steps.resend(unconfirmed.email),
      () => steps.resend(newEmail('unknown')),
    );
  });

  it('sign-up', async () => {
    const signUp = (email: string) =>
      steps.api({
        url: '/api/auth/signup',
        body: { name: 'Again', email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      });
    await expectSameTimes(
      () => signUp(confirmed.email),
      () => signUp(newEmail('unknown')),
    );
  });

  it('login with a wrong password', async () => {
    await expectSameTimes(
      () => steps.loginWith(confirmed.email, 'wrong-Password-9'),
      () => steps.loginWith(newEmail('unknown'), 'wrong-Password-9'),
    );
  });
});

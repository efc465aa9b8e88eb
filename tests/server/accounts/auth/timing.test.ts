import { describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../../../src/server/features/accounts/passwords.js';
import { insertUser, updateUser } from '../../../../src/server/features/accounts/users.js';
import {
  accounts,
  fingerprint,
  newEmail,
  NEW_PASSWORD,
  type ApiResponse,
} from '../../support/accounts.js';
import { build } from '../../support/build.js';
import { expectIndistinguishableTimes } from '../../support/mann-whitney.js';

const WARM_UP_PAIRS = 10;
const PAIRS = 60;

/**
 * The account endpoints must not tell by their response time whether an address has an account.
 * Each test times 60 pairs of requests, one for an existing account and one for an unknown
 * address, interleaved and alternating which goes first (so load from elsewhere on the machine
 * falls on both sides alike), and compares the two samples with a Mann-Whitney U test. Every
 * request names an address used nowhere before, on both sides: what differs is only whether it
 * has an account, not whether the server has seen it (caches, rate-limit keys, page cache).
 */
describe('response times that do not tell whether an account exists', async () => {
  // Production's hashing cost: a skipped hash must stand out of the jitter as it would there.
  vi.stubEnv('NODE_ENV', 'production');
  const server = await build();
  const steps = accounts(server);
  const passwordHash = await hashPassword(NEW_PASSWORD);

  /** `count` accounts written straight to the database (hashing each would take minutes). */
  async function existingAccounts(count: number, state: 'confirmed' | 'unconfirmed') {
    const emails: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const email = newEmail(state);
      const now = server.clock.now();
      const id = await insertUser(server.database.db, { name: 'Member', email, passwordHash }, now);
      if (state === 'confirmed') await updateUser(server.database.db, id, { confirmed: 1 }, now);
      emails.push(email);
    }
    return emails;
  }

  async function timed(send: () => Promise<ApiResponse>) {
    const start = process.hrtime.bigint();
    const res = await send();
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, res };
  }

  async function expectSameTimes(
    existingState: 'confirmed' | 'unconfirmed',
    send: (email: string) => Promise<ApiResponse>,
  ) {
    const measure = async () => {
      const existingEmails = await existingAccounts(WARM_UP_PAIRS + PAIRS, existingState);
      const samples = { existing: [] as number[], unknown: [] as number[] };
      for (let pair = 0; pair < WARM_UP_PAIRS + PAIRS; pair += 1) {
        // A minute between pairs: a throttle that spares repeated requests must not hide the work.
        server.clock.advance(61_000);
        const order =
          pair % 2 === 0 ? (['existing', 'unknown'] as const) : (['unknown', 'existing'] as const);
        const answers: Partial<Record<'existing' | 'unknown', ApiResponse>> = {};
        for (const side of order) {
          const email = side === 'existing' ? existingEmails[pair]! : newEmail('unknown');
          const { ms, res } = await timed(() => send(email));
          answers[side] = res;
          if (pair >= WARM_UP_PAIRS) samples[side].push(ms);
        }
        expect(fingerprint(answers.existing!)).toEqual(fingerprint(answers.unknown!));
      }
      return samples;
    };
    await expectIndistinguishableTimes(measure, (ok, summary) => expect(ok, summary).toBe(true));
  }

  it('forgot-password', async () => {
    await expectSameTimes('confirmed', (email) => steps.forgot(email));
  });

  it('resend-confirmation', async () => {
    await expectSameTimes('unconfirmed', (email) => steps.resend(email));
  });

  it('sign-up', async () => {
    await expectSameTimes('confirmed', (email) =>
      steps.api({
        url: '/api/auth/signup',
        body: { name: 'Again', email, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      }),
    );
  });

  it('login with a wrong password', async () => {
    await expectSameTimes('confirmed', (email) => steps.loginWith(email, 'wrong-Password-9'));
  });
});

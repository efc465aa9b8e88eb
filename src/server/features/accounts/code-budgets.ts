import { CODE_LENGTH } from '../../../shared/constants.js';
import type { DeleteQueryBuilder, DeleteResult, SelectQueryBuilder } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { CodePurpose, GuessPurpose } from '../../infra/db/schema-accounts.js';
import type { Database } from '../../infra/db/schema.js';

const HOUR_MS = 3_600_000;

/** Wrong tries an account accepts per purpose in any 24 hours, whatever the route or the form. */
export const ACCOUNT_TRIES_PER_WINDOW = 100;
export const ACCOUNT_WINDOW_MS = 24 * HOUR_MS;

/**
 * Wrong second-factor tries an account accepts in any 24 hours. An authenticator code is accepted
 * at three steps (the current one and one either side), so each guess hits with chance 3 / 10^6:
 * 30 a day keep the chance below 1 in 10,000 a day for someone who has the password.
 */
const SECOND_FACTOR_TRIES_PER_WINDOW = 30;

const accountLimit = (purpose: GuessPurpose) =>
  purpose === 'second-factor' ? SECOND_FACTOR_TRIES_PER_WINDOW : ACCOUNT_TRIES_PER_WINDOW;

/**
 * The bare form's budget: a failure tried against L live codes weighs L (one guess hits some code
 * with chance L / 10^6), and the weights of an hour stay within 10^6 × 10^-4 = 100, so the chance
 * that any bare guess hits stays below 1 in 10,000 an hour.
 */
export const BARE_WEIGHT_PER_WINDOW = 10 ** CODE_LENGTH / 10_000;
const BARE_WINDOW_MS = HOUR_MS;

export const accountScope = (userId: string, purpose: GuessPurpose) =>
  `account:${purpose}:${userId}`;
export const bareScope = (purpose: CodePurpose) => `bare:${purpose}`;

/**
 * Makes the caller's transaction the only one checking this budget until it ends, on every engine
 * and across instances: the upsert holds the row's lock until commit on PostgreSQL (a concurrent
 * insert of the same new key waits for it too), and SQLite lets one transaction write at a time.
 * Reads after it (PostgreSQL's read committed takes a fresh snapshot per statement) see every
 * failure the previous holder counted.
 */
export async function lockBudget(trx: DB, scope: string): Promise<void> {
  if (!trx.isTransaction) throw new Error('a code budget is checked inside a transaction');
  await trx
    .insertInto('code_budget_locks')
    .values({ scope })
    .onConflict((oc) => oc.column('scope').doUpdateSet({ scope: (eb) => eb.ref('excluded.scope') }))
    .execute();
}

/**
 * Seconds until enough of the window's failures (oldest first) have left it for `weight` more to
 * fit within `limit`; undefined when it fits now, Infinity when it never fits.
 */
export function secondsUntilRoom(
  failures: readonly { at: number; weight: number }[],
  weight: number,
  limit: number,
  windowMs: number,
  now: number,
): number | undefined {
  let total = failures.reduce((sum, failure) => sum + failure.weight, 0);
  if (total + weight <= limit) return undefined;
  for (const failure of failures) {
    total -= failure.weight;
    if (total + weight <= limit)
      return Math.max(1, Math.ceil((failure.at + windowMs - now) / 1000));
  }
  return Infinity;
}

type FailureTable = 'account_code_failures' | 'code_failures';

/** A budget of wrong tries: the table that counts them, and how much of them a window holds. */
interface Budget<T extends FailureTable> {
  table: T;
  limit: number;
  windowMs: number;
}

/** Per account and purpose, every wrong try weighs 1. */
const ACCOUNT: Budget<'account_code_failures'> = {
  table: 'account_code_failures',
  limit: ACCOUNT_TRIES_PER_WINDOW,
  windowMs: ACCOUNT_WINDOW_MS,
};
/** Per purpose, for the bare form; a failure weighs the number of codes it was tried against. */
const BARE: Budget<'code_failures'> = {
  table: 'code_failures',
  limit: BARE_WEIGHT_PER_WINDOW,
  windowMs: BARE_WINDOW_MS,
};

/**
 * The window of a budget at `now`, for one purpose: the failures that still count, and a delete of
 * those that have left it. (Both tables have `purpose` and `at`; Kysely cannot check a query whose
 * table is a type parameter, so these are built over either table and typed back to the one given.)
 */
function budgetWindow<T extends FailureTable>(
  trx: DB,
  budget: Budget<T>,
  purpose: GuessPurpose,
  now: number,
) {
  const table = budget.table as FailureTable;
  const start = now - budget.windowMs;
  return {
    counting: trx
      .selectFrom(table)
      .where('purpose', '=', purpose)
      .where('at', '>', start) as unknown as SelectQueryBuilder<Database, T, object>,
    deleteExpired: trx
      .deleteFrom(table)
      .where('purpose', '=', purpose)
      .where('at', '<=', start) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>,
  };
}

/** The account budget: seconds to wait when it is spent. Call holding its lock. */
export async function accountBudgetWait(
  trx: DB,
  userId: string,
  purpose: GuessPurpose,
  now: number,
): Promise<number | undefined> {
  const failures = await budgetWindow(trx, ACCOUNT, purpose, now)
    .counting.select('at')
    .where('user_id', '=', userId)
    .orderBy('at')
    .execute();
  const weighed = failures.map(({ at }) => ({ at, weight: 1 }));
  return secondsUntilRoom(weighed, 1, accountLimit(purpose), ACCOUNT.windowMs, now);
}

/** Of these users, those whose account budget is spent. Call holding their locks. */
export async function accountsSpent(
  trx: DB,
  userIds: readonly string[],
  purpose: CodePurpose,
  now: number,
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const counts = await budgetWindow(trx, ACCOUNT, purpose, now)
    .counting.select((eb) => ['user_id', eb.fn.countAll<number>().as('n')])
    .where('user_id', 'in', userIds)
    .groupBy('user_id')
    .execute();
  return new Set(counts.filter((row) => Number(row.n) >= ACCOUNT.limit).map((row) => row.user_id));
}

/** Counts one wrong try against each of these accounts. Call holding their locks. */
export async function recordAccountFailures(
  trx: DB,
  userIds: readonly string[],
  purpose: GuessPurpose,
  now: number,
): Promise<void> {
  if (userIds.length === 0) return;
  // What has left the window no longer counts; the lock makes these rows ours to prune.
  await budgetWindow(trx, ACCOUNT, purpose, now)
    .deleteExpired.where('user_id', 'in', userIds)
    .execute();
  await trx
    .insertInto('account_code_failures')
    .values(userIds.map((userId) => ({ user_id: userId, purpose, at: now })))
    .execute();
}

/** The bare budget: seconds to wait before a try of this weight fits. Call holding its lock. */
export async function bareBudgetWait(
  trx: DB,
  purpose: CodePurpose,
  weight: number,
  now: number,
): Promise<number | undefined> {
  const failures = await budgetWindow(trx, BARE, purpose, now)
    .counting.select(['at', 'weight'])
    .orderBy('at')
    .execute();
  return secondsUntilRoom(failures, weight, BARE.limit, BARE.windowMs, now);
}

/** Counts one bare failure of this weight. Call holding the bare budget's lock. */
export async function recordBareFailure(
  trx: DB,
  purpose: CodePurpose,
  weight: number,
  now: number,
): Promise<void> {
  await budgetWindow(trx, BARE, purpose, now).deleteExpired.execute();
  await trx.insertInto('code_failures').values({ purpose, at: now, weight }).execute();
}

import type { DB } from '../../infra/db/handle.js';
import type { MailBudget } from '../../infra/db/schema-accounts.js';
import { CODE_RESEND_INTERVAL_MS } from './codes.js';

const HOUR_MS = 3_600_000;
/** Mails per address and purpose in any hour. */
const MAIL_BUDGET_PER_HOUR = 5;

/**
 * Whether a request made at `at` fits beside the requests already counted for its address and
 * purpose: none within a minute of it either way, fewer than five in the hour before it. Requests
 * are judged by when they were made, not mailed, so a resend 60 s after the sign-up is allowed
 * however late the sign-up went. Counted requests later than `at` count in the hour too, so both
 * rules hold in whatever order the worker counts requests.
 */
export function fitsMailBudget(counted: readonly number[], at: number): boolean {
  const inHour = counted.filter((time) => time > at - HOUR_MS);
  return (
    inHour.length < MAIL_BUDGET_PER_HOUR &&
    !inHour.some((time) => Math.abs(time - at) < CODE_RESEND_INTERVAL_MS)
  );
}

/**
 * The request times of what was counted for this address and purpose in the hour before `at` (and
 * after it). Read under the account's lock (see code-mails.ts), so parallel workers count in turn.
 */
export async function countedRequests(
  trx: DB,
  recipient: string,
  purpose: MailBudget,
  at: number,
): Promise<number[]> {
  const rows = await trx
    .selectFrom('outbox')
    .select('created_at')
    .where('recipient', '=', recipient)
    .where('purpose', '=', purpose)
    .where('counted_at', 'is not', null)
    .where('created_at', '>', at - HOUR_MS)
    .execute();
  return rows.map((row) => Number(row.created_at));
}

import type { Selectable } from 'kysely';
import { Webhook as Signer } from 'standardwebhooks';
import type { WebhookDeliveriesTable } from '../../infra/db/schema-webhooks.js';
import { backoff, type Job } from '../../infra/runner/queue.js';
import { HttpError } from '../../lib/http-error.js';
import { checkedAddress, checkScheme, type AddressPolicy } from './addresses.js';
import { disableWhenFailing, type DisableDeps } from './disable-failing.js';
import { sendTo, type SendResult } from './send.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** What one attempt needs: switching a failing endpoint off, and the checks of its address. */
interface AttemptDeps extends DisableDeps {
  policy: AddressPolicy;
  /** One attempt's time limit for an endpoint that has not been failing (tests shorten it). */
  timeoutMs?: number;
}

const SECOND = 1000;
const HOUR = 3_600_000;
/** How long deliveries of an event are tried; an endpoint failing this long is switched off. */
const RETRY_FOR_MS = 72 * HOUR;
/** The waits after the 1st, 2nd … failed attempt; then every 10 hours. */
const backoffMs = backoff.schedule([
  5 * SECOND,
  5 * 60 * SECOND,
  30 * 60 * SECOND,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
]);

/** One attempt's time limit, connection to the end of the answer, for a healthy endpoint. */
const TIMEOUT_MS = 10 * SECOND;
/** The shortest it gets for an endpoint that keeps failing. */
const FAILING_TIMEOUT_MS = 2 * SECOND;
/**
 * An endpoint that failed this many attempts in a row, over at least FAILING_FOR_MS, is switched
 * off even before any of its deliveries has been failing for 3 days (a busy catalogue calls a
 * dead endpoint often).
 */
export const FAILURES_TO_DISABLE = 100;
const FAILING_FOR_MS = HOUR;

/**
 * The time limit of an endpoint's next attempt: the full one while it answers, halved for each
 * failure in a row after the first, down to FAILING_TIMEOUT_MS (or the full one if shorter).
 */
export function timeoutFor(failures: number, fullMs = TIMEOUT_MS): number {
  const floor = Math.min(fullMs, FAILING_TIMEOUT_MS);
  return Math.max(floor, Math.round(fullMs / 2 ** Math.max(failures - 1, 0)));
}

interface Hook {
  id: string;
  url: string;
  secret: string;
  enabled: number;
  failures: number;
}

const findHook = (deps: AttemptDeps, id: string): Promise<Hook | undefined> =>
  deps.db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret', 'enabled', 'failures'])
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Makes one attempt at a claimed delivery and settles it: delivered, failed for good (its 3 days
 * are over, or its endpoint was switched off), or due again after a wait that grows with each
 * failure. An attempt cut short because the runner stops gives the delivery back untouched.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  job: Job<DeliveryRow>,
  signal: AbortSignal,
) {
  const { row } = job;
  const hook = await findHook(deps, row.webhook_id);
  // Deleted meanwhile: its deliveries went with it.
  if (!hook) return;
  const failed = (httpStatus: number | null, error: string | null) =>
    job.finish({
      status: 'failed',
      next_attempt_at: null,
      last_status: httpStatus,
      last_error: error,
    });
  if (hook.enabled !== 1) return failed(null, 'The endpoint is disabled');
  const result = await send(deps, hook, row, timeoutFor(hook.failures, deps.timeoutMs), signal);
  if (signal.aborted) return job.release();
  const now = deps.clock.now();
  const streak = await recordOutcome(deps, hook.id, result, now);
  if (streak === undefined) {
    return job.finish({
      status: 'delivered',
      next_attempt_at: null,
      last_status: result.status,
      last_error: null,
      delivered_at: now,
    });
  }
  const deadline = row.created_at + RETRY_FOR_MS;
  const error = result.error ?? `HTTP ${result.status}`;
  // Disabled before the delivery is finished: finishing frees the endpoint's slot, and an
  // attempt claimed into it meanwhile would still find the endpoint enabled and send.
  if (now >= deadline) {
    await disableWhenFailing(deps, row.webhook_id, row.created_at, error);
    return failed(result.status, error);
  }
  if (streak.failures >= FAILURES_TO_DISABLE && now - streak.since >= FAILING_FOR_MS) {
    await disableWhenFailing(deps, row.webhook_id, streak.since, error);
    return failed(result.status, error);
  }
  // The last attempt is made when the 3 days end, not skipped because a wait overshoots them.
  await job.retryAt(Math.min(now + backoffMs(row.attempts), deadline), {
    last_status: result.status,
    last_error: error,
  });
}

/**
 * One attempt at a delivery made now rather than queued (the test button), settled at once:
 * delivered or failed, never retried; it does not count in the endpoint's failures in a row.
 */
export async function attemptOnce(deps: AttemptDeps, row: DeliveryRow) {
  const hook = await findHook(deps, row.webhook_id);
  if (!hook) return;
  const result = await send(deps, hook, row, timeoutFor(0, deps.timeoutMs));
  const now = deps.clock.now();
  const ok = isSuccess(result);
  await deps.db
    .updateTable('webhooks')
    .set({
      last_attempt_at: now,
      last_status: result.status,
      last_succeeded: ok ? 1 : 0,
      last_error: ok ? null : (result.error ?? `HTTP ${result.status}`),
      ...(ok ? { last_success_at: now, failures: 0, failing_since: null } : {}),
    })
    .where('id', '=', hook.id)
    .execute();
  await deps.db
    .updateTable('webhook_deliveries')
    .set({
      status: ok ? 'delivered' : 'failed',
      next_attempt_at: null,
      locked_until: null,
      last_status: result.status,
      last_error: ok ? null : (result.error ?? `HTTP ${result.status}`),
      delivered_at: ok ? now : null,
    })
    .where('id', '=', row.id)
    .execute();
}

const isSuccess = (result: SendResult) =>
  result.status !== null && result.status >= 200 && result.status < 300;

/**
 * Records an attempt's outcome on its endpoint: what the settings show, and the failures in a
 * row (reset by a success). Returns that streak after a failure, undefined after a success.
 */
async function recordOutcome(
  deps: AttemptDeps,
  webhookId: string,
  result: SendResult,
  now: number,
): Promise<{ failures: number; since: number } | undefined> {
  const ok = isSuccess(result);
  const updated = await deps.db
    .updateTable('webhooks')
    .set((eb) => ({
      last_attempt_at: now,
      last_status: result.status,
      last_succeeded: ok ? 1 : 0,
      last_error: ok ? null : (result.error ?? `HTTP ${result.status}`),
      ...(ok
        ? { last_success_at: now, failures: 0, failing_since: null }
        : {
            failures: eb('failures', '+', 1),
            failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
          }),
    }))
    .where('id', '=', webhookId)
    .returning(['failures', 'failing_since'])
    .executeTakeFirst();
  if (ok) return undefined;
  return { failures: updated?.failures ?? 1, since: updated?.failing_since ?? now };
}

/** Signs and sends one attempt; a URL that now points somewhere private is not called. */
async function send(
  deps: AttemptDeps,
  hook: Hook,
  row: DeliveryRow,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendResult> {
  const { policy, clock } = deps;
  try {
    const parsed = checkScheme(hook.url, policy);
    const address = await checkedAddress(parsed, policy);
    if (!address) return { status: null, error: `${parsed.hostname} does not resolve` };
    const at = new Date(clock.now());
    const signature = new Signer(hook.secret).sign(row.id, at, row.payload);
    const headers = {
      'webhook-id': row.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return await sendTo(parsed, address, headers, row.payload, timeoutMs, signal);
  } catch (error) {
    if (error instanceof HttpError) return { status: null, error: error.message };
    return { status: null, error: String(error).slice(0, 500) };
  }
}

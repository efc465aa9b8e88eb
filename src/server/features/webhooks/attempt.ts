import type { Selectable } from 'kysely';
import { Webhook as Signer } from 'standardwebhooks';
import type { WebhookDeliveriesTable } from '../../infra/db/schema.js';
import { HttpError } from '../../lib/http-error.js';
import { checkedAddress, checkScheme, type AddressPolicy } from './addresses.js';
import { disableWhenFailing, type DisableDeps } from './disable-failing.js';
import { sendTo, type SendResult } from './send.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** What one attempt needs: switching a failing endpoint off, and the checks of its address. */
interface AttemptDeps extends DisableDeps {
  policy: AddressPolicy;
  /** One attempt's time limit (tests shorten it). */
  timeoutMs?: number;
}

const SECOND = 1000;
const HOUR = 3_600_000;
/** How long deliveries of an event are tried; an endpoint failing this long is switched off. */
const RETRY_FOR_MS = 72 * HOUR;
/** The waits after the 1st, 2nd … failed attempt; then every 10 hours. */
const BACKOFF_MS = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR];
const backoffMs = (attempts: number) =>
  BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1]!;

/**
 * Makes one attempt at a claimed delivery and records how it went: delivered, failed for good
 * (`once`, or its 3 days are over), or due again after a wait that grows with each failure.
 */
export async function attemptDelivery(deps: AttemptDeps, row: DeliveryRow, once: boolean) {
  const { db } = deps;
  const hook = await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret', 'enabled'])
    .where('id', '=', row.webhook_id)
    .executeTakeFirst();
  if (!hook) return;
  if (!once && hook.enabled !== 1) {
    await close(deps, row, 'failed', null, 'The endpoint is disabled');
    return;
  }
  const result = await send(deps, hook.url, hook.secret, row);
  const now = deps.clock.now();
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const error = ok ? null : (result.error ?? `HTTP ${result.status}`);
  await db
    .updateTable('webhooks')
    .set({
      last_attempt_at: now,
      last_status: result.status,
      last_succeeded: ok ? 1 : 0,
      last_error: error,
      ...(ok ? { last_success_at: now } : {}),
    })
    .where('id', '=', hook.id)
    .execute();
  if (ok) return close(deps, row, 'delivered', result.status, null);
  const deadline = row.created_at + RETRY_FOR_MS;
  if (once || now >= deadline) {
    await close(deps, row, 'failed', result.status, error);
    if (!once) await disableWhenFailing(deps, row, error!);
    return;
  }
  // The last attempt is made when the 3 days end, not skipped because a wait overshoots them.
  const next = Math.min(now + backoffMs(row.attempts), deadline);
  await db
    .updateTable('webhook_deliveries')
    .set({
      locked_until: null,
      next_attempt_at: next,
      last_status: result.status,
      last_error: error,
    })
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .execute();
}

/** Signs and sends one attempt; a URL that now points somewhere private is not called. */
async function send(
  deps: AttemptDeps,
  url: string,
  secret: string,
  row: DeliveryRow,
): Promise<SendResult> {
  const { policy, clock, timeoutMs } = deps;
  try {
    const parsed = checkScheme(url, policy);
    const address = await checkedAddress(parsed, policy);
    if (!address) return { status: null, error: `${parsed.hostname} does not resolve` };
    const at = new Date(clock.now());
    const signature = new Signer(secret).sign(row.id, at, row.payload);
    const headers = {
      'webhook-id': row.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return await sendTo(parsed, address, headers, row.payload, timeoutMs);
  } catch (error) {
    if (error instanceof HttpError) return { status: null, error: error.message };
    return { status: null, error: String(error).slice(0, 500) };
  }
}

async function close(
  deps: AttemptDeps,
  row: DeliveryRow,
  status: 'delivered' | 'failed',
  httpStatus: number | null,
  error: string | null,
) {
  const now = deps.clock.now();
  await deps.db
    .updateTable('webhook_deliveries')
    .set({
      status,
      next_attempt_at: null,
      locked_until: null,
      last_status: httpStatus,
      last_error: error,
      delivered_at: status === 'delivered' ? now : null,
    })
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .execute();
}

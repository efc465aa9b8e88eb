import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import { Webhook as Signer } from 'standardwebhooks';
import { WEBHOOK_TEST_EVENT } from '../../../shared/schemas/webhooks/webhooks.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { WebhookDeliveriesTable } from '../../infra/db/schema.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError } from '../../lib/http-error.js';
import { checkedAddress, checkScheme, type AddressPolicy } from './addresses.js';
import { sendTo, type SendResult } from './send.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const SECOND = 1000;
const HOUR = 3_600_000;
/** How long deliveries of an event are tried; an endpoint failing this long is switched off. */
const RETRY_FOR_MS = 72 * HOUR;
/** The waits after the 1st, 2nd … failed attempt; then every 10 hours. */
const BACKOFF_MS = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR];
const backoffMs = (attempts: number) =>
  BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1]!;
/** How long a worker owns a claimed delivery: well beyond one attempt's 10 s. */
const LEASE_MS = 60_000;
const POLL_MS = 2_000;
/** How long finished deliveries are kept for the deliveries list; pruned at most hourly. */
const KEEP_FINISHED_MS = 30 * 24 * HOUR;

export interface DelivererDeps {
  db: DB;
  dialect: MigrationDialect;
  clock: Clock;
  policy: AddressPolicy;
  outbox: Outbox;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** One attempt's time limit (tests shorten it). */
  timeoutMs?: number;
}

/**
 * The delivery worker, one per instance: it claims due deliveries with a lease in one statement
 * (on PostgreSQL the candidate is read `for update skip locked`; on SQLite the single writer makes
 * the conditional update atomic), so several instances never send one delivery at once. Each
 * attempt checks the endpoint's address again and connects to the checked one.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private prunedAt = 0;

  constructor(private readonly deps: DelivererDeps) {}

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Looks now rather than at the next poll (after a commit that queued deliveries). */
  wake() {
    if (this.stopped || this.running) return;
    this.schedule(0);
  }

  private schedule(delay: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.deliverDue()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'webhook worker failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule(POLL_MS);
        });
    }, delay);
    this.timer.unref();
  }

  /** Attempts every due delivery once; returns how many were attempted. Tests call it. */
  async deliverDue(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const row = await this.claimNext();
      if (!row) break;
      attempted += 1;
      await this.attempt(row, false);
    }
    await this.pruneFinished();
    return attempted;
  }

  /** Finished deliveries older than 30 days go: the list shows the newest 50 anyway. */
  private async pruneFinished() {
    const now = this.deps.clock.now();
    if (now - this.prunedAt < HOUR) return;
    this.prunedAt = now;
    await this.deps.db
      .deleteFrom('webhook_deliveries')
      .where('status', '!=', 'pending')
      .where('created_at', '<', now - KEEP_FINISHED_MS)
      .execute();
  }

  /**
   * Sends a 'webhook.test' event to the endpoint now, once, whatever it subscribes to and
   * whether or not it is enabled, and returns the delivery as it ended.
   */
  async sendTest(webhookId: string, catalogueId: string): Promise<DeliveryRow> {
    const now = this.deps.clock.now();
    const id = randomUUID();
    const payload = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: new Date(now).toISOString(),
      data: { webhookId, catalogueId },
    });
    const row: DeliveryRow = {
      id,
      webhook_id: webhookId,
      catalogue_id: catalogueId,
      event_type: WEBHOOK_TEST_EVENT,
      payload,
      status: 'pending',
      attempts: 1,
      next_attempt_at: null,
      locked_until: now + LEASE_MS,
      last_status: null,
      last_error: null,
      created_at: now,
      delivered_at: null,
    };
    await this.deps.db.insertInto('webhook_deliveries').values(row).execute();
    await this.attempt(row, true);
    return this.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  private async claimNext(): Promise<DeliveryRow | undefined> {
    const { db, dialect, clock } = this.deps;
    const now = clock.now();
    let candidate = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(1);
    if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
    return db
      .updateTable('webhook_deliveries')
      .set({ locked_until: now + LEASE_MS, attempts: (eb) => eb('attempts', '+', 1) })
      .where('id', '=', candidate)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  private async attempt(row: DeliveryRow, once: boolean) {
    const { db } = this.deps;
    const hook = await db
      .selectFrom('webhooks')
      .select(['id', 'url', 'secret', 'enabled'])
      .where('id', '=', row.webhook_id)
      .executeTakeFirst();
    if (!hook) return;
    if (!once && hook.enabled !== 1) {
      await this.close(row, 'failed', null, 'The endpoint is disabled');
      return;
    }
    const result = await this.send(hook.url, hook.secret, row);
    const now = this.deps.clock.now();
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
    if (ok) return this.close(row, 'delivered', result.status, null);
    const deadline = row.created_at + RETRY_FOR_MS;
    if (once || now >= deadline) {
      await this.close(row, 'failed', result.status, error);
      if (!once) await this.disableWhenFailing(row, error!);
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
  private async send(url: string, secret: string, row: DeliveryRow): Promise<SendResult> {
    const { policy, clock, timeoutMs } = this.deps;
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

  private async close(
    row: DeliveryRow,
    status: 'delivered' | 'failed',
    httpStatus: number | null,
    error: string | null,
  ) {
    const now = this.deps.clock.now();
    await this.deps.db
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

  /**
   * A delivery failed for 3 days: unless the endpoint answered with a 2xx since its event, the
   * endpoint is switched off and the catalogue's owner and admins are mailed, once (the update
   * that switches it off is the one that mails, on whichever instance).
   */
  private async disableWhenFailing(row: DeliveryRow, lastError: string) {
    const { db, clock, outbox, publicUrl, log } = this.deps;
    await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const disabled = await trx
        .updateTable('webhooks')
        .set({ enabled: 0, disabled_at: now, updated_at: now })
        .where('id', '=', row.webhook_id)
        .where('enabled', '=', 1)
        .where((eb) =>
          eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', row.created_at)]),
        )
        .returning(['url', 'catalogue_id'])
        .executeTakeFirst();
      if (!disabled) return;
      // Its other deliveries would fail the same way: they end with it.
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          next_attempt_at: null,
          locked_until: null,
          last_error: 'The endpoint is disabled',
        })
        .where('webhook_id', '=', row.webhook_id)
        .where('status', '=', 'pending')
        .execute();
      const catalogue = await trx
        .selectFrom('catalogues')
        .select('name')
        .where('id', '=', disabled.catalogue_id)
        .executeTakeFirst();
      const admins = await trx
        .selectFrom('catalogue_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['u.email', 'u.name'])
        .where('m.catalogue_id', '=', disabled.catalogue_id)
        .where('m.role', 'in', ['owner', 'admin'])
        .execute();
      for (const admin of admins) {
        await outbox.enqueue(
          trx,
          templates.webhookDisabled(publicUrl, admin.email, admin.name, {
            url: disabled.url,
            catalogue: catalogue?.name ?? '',
            catalogueId: disabled.catalogue_id,
            lastError,
          }),
        );
      }
      log.warn({ webhookId: row.webhook_id }, 'webhook failed for 3 days; disabled');
    });
    outbox.wake();
  }
}

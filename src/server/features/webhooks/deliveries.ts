import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOK_TEST_EVENT } from '../../../shared/schemas/webhooks/webhooks.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import type { Clock } from '../../lib/clock.js';
import type { AddressPolicy } from './addresses.js';
import { attemptDelivery, type DeliveryRow } from './attempt.js';

const HOUR = 3_600_000;
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
      await attemptDelivery(this.deps, row, false);
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
    await attemptDelivery(this.deps, row, true);
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
}

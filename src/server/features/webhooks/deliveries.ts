import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOK_TEST_EVENT } from '../../../shared/schemas/webhooks/webhooks.js';
import { deleteInBatches } from '../../infra/db/batched-deletes.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import type { Clock } from '../../lib/clock.js';
import type { AddressPolicy } from './addresses.js';
import type { Runner } from '../../infra/runner/runner.js';
import type { TableQueue } from '../../infra/runner/queue.js';
import { attemptDelivery, attemptOnce, type DeliveryRow } from './attempt.js';
import { expandFanout, FANOUT_LEASE_MS, type FanoutRow } from './fanouts.js';

const HOUR = 3_600_000;
/** How long a worker owns a claimed delivery: well beyond one attempt's 10 s. */
const LEASE_MS = 60_000;
const POLL_MS = 2_000;
/** How long finished deliveries are kept for the deliveries list; pruned hourly. */
const KEEP_FINISHED_MS = 30 * 24 * HOUR;

/**
 * The fairness bounds: attempts one instance makes at once, and those one catalogue, and one
 * endpoint, may have in flight across every instance. Attempts mostly wait on the network, so
 * many run at once; a catalogue whose endpoints hang holds at most its own few.
 */
export const DELIVERY_BOUNDS = { perInstance: 32, perCatalogue: 4, perEndpoint: 2 };

export interface DelivererDeps {
  db: DB;
  dialect: MigrationDialect;
  clock: Clock;
  policy: AddressPolicy;
  outbox: Outbox;
  runner: Runner;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** One attempt's time limit for an endpoint that has not been failing (tests shorten it). */
  timeoutMs?: number;
}

/**
 * Webhook deliveries as a queue of the background runner: claimed with a lease by a worker on any
 * instance, so several instances never send one delivery at once, and attempted in parallel
 * within the bounds above, a catalogue with nothing in flight going first. Each attempt checks
 * the endpoint's address again and connects to the checked one.
 */
export class WebhookDeliverer {
  private readonly queue: TableQueue<DeliveryRow>;
  private readonly fanouts: TableQueue<FanoutRow>;

  constructor(private readonly deps: DelivererDeps) {
    this.queue = deps.runner.queue<DeliveryRow>({
      name: 'webhook deliveries',
      table: 'webhook_deliveries',
      open: { column: 'status', value: 'pending' },
      tenant: {
        column: 'catalogue_id',
        perTenant: DELIVERY_BOUNDS.perCatalogue,
        group: { column: 'webhook_id', perGroup: DELIVERY_BOUNDS.perEndpoint },
      },
      concurrency: DELIVERY_BOUNDS.perInstance,
      leaseMs: LEASE_MS,
      pollMs: POLL_MS,
      handle: async (job, signal) => {
        await attemptDelivery(deps, job, signal);
        return true;
      },
    });
    // Events queued in bulk, their deliveries written a step at a time: one writer per catalogue.
    this.fanouts = deps.runner.queue<FanoutRow>({
      name: 'webhook fan-outs',
      table: 'webhook_fanouts',
      tenant: { column: 'catalogue_id', perTenant: 1 },
      concurrency: 2,
      leaseMs: FANOUT_LEASE_MS,
      pollMs: POLL_MS,
      handle: async (job, signal) => {
        await expandFanout(deps.db, deps.clock, job, signal, () => this.queue.wake());
        return true;
      },
    });
    deps.runner.every({
      name: 'pruning finished webhook deliveries',
      everyMs: HOUR,
      run: () => this.pruneFinished(),
    });
  }

  /** Looks now rather than at the next poll (after a commit that queued deliveries). */
  wake() {
    this.fanouts.wake();
    this.queue.wake();
  }

  /**
   * Writes the deliveries of every event queued in bulk; returns how many such rows were written
   * out. Tests call it (deliverDue does too).
   */
  fanOutDue(): Promise<number> {
    return this.fanouts.drain();
  }

  /** Attempts every due delivery once; returns how many were attempted. Tests call it. */
  async deliverDue(): Promise<number> {
    await this.fanOutDue();
    return this.queue.drain();
  }

  /**
   * Finished deliveries older than 30 days go (the list shows the newest 50 anyway), a batch at a
   * time down their index by age: one bulk write's million go in steps.
   */
  async pruneFinished(): Promise<number> {
    const { db } = this.deps;
    const before = this.deps.clock.now() - KEEP_FINISHED_MS;
    return deleteInBatches((limit) =>
      db
        .deleteFrom('webhook_deliveries')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('created_at', '<', before)
            .where('status', '!=', 'pending')
            .limit(limit),
        )
        .executeTakeFirst(),
    );
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
    await attemptOnce(this.deps, row);
    return this.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }
}

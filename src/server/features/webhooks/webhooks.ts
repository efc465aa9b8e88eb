import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import type { ActivitySource } from '../../../shared/activity.js';
import {
  DELIVERIES_SHOWN,
  W,
  WEBHOOKS_MAX,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '../../../shared/schemas/webhooks/webhooks.js';
import type { DatabaseHandle, DB } from '../../infra/db/handle.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../infra/db/schema-webhooks.js';
import type { Clock } from '../../lib/clock.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { checkedAddress, checkScheme, type AddressPolicy } from './addresses.js';
import type { WebhookDeliverer } from './deliveries.js';

/**
 * The catalogue a request addresses, and who asks from where (what its activity entries say):
 * `confirm` fails the transaction if the caller lost the right.
 */
interface AddressedCatalogue {
  id: string;
  actorId: string;
  source: ActivitySource;
  confirm(trx: DB): Promise<void>;
}

/** The activity log's recorder (features/activity), as the app decorates it. */
type RecordActivity = FastifyInstance['activity']['record'];

interface WebhooksDeps {
  db: DB;
  dialect: DatabaseHandle['dialect'];
  clock: Clock;
  policy: AddressPolicy;
  deliverer: WebhookDeliverer;
  /** Changes of the endpoints are logged, in their transaction, like any change of a catalogue. */
  recordActivity: RecordActivity;
}

const iso = (at: number) => new Date(Number(at)).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

/** A new signing secret in the Standard Webhooks format: whsec_ and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function presentWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    enabled: row.enabled === 1,
    createdAt: iso(row.created_at),
    lastAttemptAt: isoOrNull(row.last_attempt_at),
    lastStatus: row.last_status,
    lastSucceeded: row.last_succeeded === null ? null : row.last_succeeded === 1,
    lastError: row.last_error,
    disabledAt: isoOrNull(row.disabled_at),
  };
}

/**
 * An endpoint as the activity log names it: its id, and its URL's origin alone. Every member reads
 * the log, and a URL's path or query often carries a token (only owners and admins see it).
 */
function loggedWebhook(row: { id: string; url: string }) {
  const url = new URL(row.url);
  const rest = `${url.pathname}${url.search}${url.hash}`;
  return { id: row.id, url: `${url.origin}/${rest === '/' ? '' : '…'}` };
}

const sameEvents = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((event) => b.includes(event));

function presentDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
  };
}

/**
 * A catalogue's webhook endpoints. Every query names the catalogue; a webhook of another
 * catalogue is not found. URLs are checked when they are set (https, a public address) and again
 * by the worker at each delivery.
 */
export class Webhooks {
  constructor(private readonly deps: WebhooksDeps) {}

  async list(catalogueId: string): Promise<Webhook[]> {
    const rows = await this.deps.db
      .selectFrom('webhooks')
      .selectAll()
      .where('catalogue_id', '=', catalogueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(presentWebhook);
  }

  async get(catalogueId: string, webhookId: string): Promise<Webhook> {
    return presentWebhook(await this.row(this.deps.db, catalogueId, webhookId));
  }

  async create(
    catalogue: AddressedCatalogue,
    body: { url: string; events: WebhookEvent[]; enabled?: boolean },
  ): Promise<{ webhook: Webhook; secret: string }> {
    const url = await this.checkUrl(body.url);
    const secret = newSecret();
    const { db, clock } = this.deps;
    const row = await db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      // Count and insert in turn per catalogue: on PostgreSQL, additions made at once would each
      // count the same endpoints and pass the cap together. SQLite runs one write at a time.
      if (this.deps.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${catalogue.id}`}, 0))`.execute(
          trx,
        );
      }
      const { count } = await trx
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('catalogue_id', '=', catalogue.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= WEBHOOKS_MAX) throw new HttpError(409, W.tooMany);
      const now = clock.now();
      const created = await trx
        .insertInto('webhooks')
        .values({
          id: randomUUID(),
          catalogue_id: catalogue.id,
          url,
          events: JSON.stringify(body.events),
          secret,
          enabled: body.enabled === false ? 0 : 1,
          created_at: now,
          updated_at: now,
          last_attempt_at: null,
          last_status: null,
          last_succeeded: null,
          last_error: null,
          last_success_at: null,
          disabled_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const data = {
        webhook: loggedWebhook(created),
        events: body.events,
        enabled: created.enabled === 1,
      };
      await this.deps.recordActivity(trx, catalogue, 'webhook.created', { data }, now);
      return created;
    });
    return { webhook: presentWebhook(row), secret };
  }

  /** Changes the URL, the events or whether it is enabled; enabling or moving it starts afresh. */
  async update(
    catalogue: AddressedCatalogue,
    webhookId: string,
    body: { url?: string; events?: WebhookEvent[]; enabled?: boolean },
  ): Promise<Webhook> {
    const url = body.url === undefined ? undefined : await this.checkUrl(body.url);
    const row = await this.deps.db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      // Locked: the entry's before is the row this update replaces, whatever else runs at once.
      const before = await this.row(trx, catalogue.id, webhookId, true);
      const now = this.deps.clock.now();
      const beforeEvents = JSON.parse(before.events) as WebhookEvent[];
      // The same events in another order are the same subscription: kept as they were.
      const events =
        body.events === undefined || sameEvents(body.events, beforeEvents)
          ? undefined
          : body.events;
      const updated = await trx
        .updateTable('webhooks')
        .set({
          updated_at: now,
          ...(url === undefined ? {} : { url }),
          ...(events === undefined ? {} : { events: JSON.stringify(events) }),
          ...(body.enabled === undefined
            ? {}
            : { enabled: body.enabled ? 1 : 0, ...(body.enabled ? { disabled_at: null } : {}) }),
          // Enabled again, or moved: its failures so far no longer shorten its time limit.
          ...(body.enabled === true || url !== undefined
            ? { failures: 0, failing_since: null }
            : {}),
        })
        .where('id', '=', webhookId)
        .where('catalogue_id', '=', catalogue.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Logged when something a reader sees changed (enabling an enabled endpoint that failed
      // gives it back its time limit, and is no change of its settings).
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      if (updated.url !== before.url) {
        changes.url = { before: loggedWebhook(before).url, after: loggedWebhook(updated).url };
      }
      if (events !== undefined) changes.events = { before: beforeEvents, after: events };
      if (updated.enabled !== before.enabled) {
        changes.enabled = { before: before.enabled === 1, after: updated.enabled === 1 };
      }
      if (Object.keys(changes).length > 0) {
        const data = { webhook: loggedWebhook(updated), changes };
        await this.deps.recordActivity(trx, catalogue, 'webhook.updated', { data }, now);
      }
      return updated;
    });
    return presentWebhook(row);
  }

  async remove(catalogue: AddressedCatalogue, webhookId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      const deleted = await trx
        .deleteFrom('webhooks')
        .where('id', '=', webhookId)
        .where('catalogue_id', '=', catalogue.id)
        .returning(['id', 'url', 'events'])
        .executeTakeFirst();
      if (!deleted) throw notFound(W.notFound);
      const data = {
        webhook: loggedWebhook(deleted),
        events: JSON.parse(deleted.events) as WebhookEvent[],
      };
      const now = this.deps.clock.now();
      await this.deps.recordActivity(trx, catalogue, 'webhook.deleted', { data }, now);
    });
  }

  /** A new signing secret, shown once; the old one stops signing at once. */
  async rotateSecret(catalogue: AddressedCatalogue, webhookId: string): Promise<string> {
    const secret = newSecret();
    await this.deps.db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      const row = await this.row(trx, catalogue.id, webhookId);
      const now = this.deps.clock.now();
      await trx
        .updateTable('webhooks')
        .set({ secret, updated_at: now })
        .where('id', '=', webhookId)
        .where('catalogue_id', '=', catalogue.id)
        .execute();
      // That it was replaced, never the secret.
      const data = { webhook: loggedWebhook(row) };
      await this.deps.recordActivity(trx, catalogue, 'webhook.secret_rotated', { data }, now);
    });
    return secret;
  }

  async test(catalogue: AddressedCatalogue, webhookId: string): Promise<WebhookDelivery> {
    await this.deps.db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      await this.row(trx, catalogue.id, webhookId);
    });
    return presentDelivery(await this.deps.deliverer.sendTest(webhookId, catalogue.id));
  }

  /** The endpoint's newest deliveries. */
  async deliveries(catalogueId: string, webhookId: string): Promise<WebhookDelivery[]> {
    await this.row(this.deps.db, catalogueId, webhookId);
    const rows = await this.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('catalogue_id', '=', catalogueId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(DELIVERIES_SHOWN)
      .execute();
    return rows.map(presentDelivery);
  }

  private async row(db: DB, catalogueId: string, webhookId: string, lock = false) {
    const row = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', webhookId)
      .where('catalogue_id', '=', catalogueId)
      // SQLite has no FOR UPDATE: its write transactions run one at a time.
      .$if(lock && this.deps.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) throw notFound(W.notFound);
    return row;
  }

  /** https and a public address, unless WEBHOOKS_ALLOW_PRIVATE_NETWORK; the URL as it will be called. */
  private async checkUrl(url: string): Promise<string> {
    const parsed = checkScheme(url, this.deps.policy);
    await checkedAddress(parsed, this.deps.policy);
    return url;
  }
}

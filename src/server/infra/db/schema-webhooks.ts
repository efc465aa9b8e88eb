import type { Generated } from 'kysely';

// The webhooks' tables. schema.ts says how times, booleans and money are stored.

/** An endpoint a catalogue's admins registered (migration 021). */
export interface WebhooksTable {
  id: string;
  catalogue_id: string;
  url: string;
  /** The subscribed event types, a JSON array. */
  events: string;
  secret: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_succeeded: number | null;
  last_error: string | null;
  last_success_at: number | null;
  /** When the worker switched it off after its failures. */
  disabled_at: number | null;
  /** Attempts failed in a row since the last success (migration 023). */
  failures: Generated<number>;
  /** When those failures began; null while the last attempt succeeded. */
  failing_since: Generated<number | null>;
}

type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, retried with back-off until a 2xx or 3 days (migration 021). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  catalogue_id: string;
  event_type: string;
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  locked_until: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

/**
 * Events of one write queued in bulk, whose deliveries the runner writes in short steps
 * (migration 062): `payloads` one body per line, `expanded` how many of them are written.
 */
export interface WebhookFanoutsTable {
  id: string;
  catalogue_id: string;
  event_type: string;
  /** The endpoints listening when the write committed, a JSON array of ids. */
  webhook_ids: string;
  payloads: string;
  expanded: Generated<number>;
  attempts: Generated<number>;
  next_attempt_at: number;
  locked_until: number | null;
  created_at: number;
}

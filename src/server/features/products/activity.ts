import type { DB } from '../../infra/db/handle.js';
import type { ActivityKind } from '../../infra/db/schema.js';
import { activityEvent, enqueueWebhookEvent } from '../webhooks/index.js';
import type { ProductRow } from './rows.js';

/** Who changed which catalogue: what an activity entry is written for. */
interface Scope {
  id: string;
  actorId: string | null;
}

/**
 * Records what a member did to a catalogue's products, in the transaction of the change: the
 * entry exists exactly when the change committed. It keeps the product's id and name, so it
 * still tells what happened once the product is gone.
 */
export async function recordActivity(
  trx: DB,
  scope: Scope,
  kind: ActivityKind,
  entry: { product?: { id: string; name: string }; data?: object },
  now: number,
): Promise<void> {
  await trx
    .insertInto('activity_entries')
    .values({
      catalogue_id: scope.id,
      actor_id: scope.actorId,
      kind,
      product_id: entry.product?.id ?? null,
      product_name: entry.product?.name ?? null,
      data: JSON.stringify(entry.data ?? {}),
      created_at: now,
    })
    .execute();
  await enqueueWebhookEvent(trx, scope.id, kind, activityEvent(scope, kind, entry, now), now);
}

/** The fields an edit can change, as an activity entry names them, and their columns. */
const EDITABLE = {
  name: 'name',
  description: 'description',
  price: 'price_cents',
  stock: 'stock',
  cost: 'cost_cents',
  sku: 'sku',
  barcode: 'barcode',
  tags: 'tags',
  image: 'image_key',
} as const satisfies Record<string, keyof ProductRow>;

/**
 * What an edit changed: each field whose value differs, before and after (prices in cents, tags
 * as a list; an image as whether there is one, since its key means nothing to a reader).
 */
export function changedFields(before: ProductRow, after: ProductRow) {
  const shown = (field: keyof typeof EDITABLE, row: ProductRow): unknown => {
    const value = row[EDITABLE[field]];
    if (field === 'tags') return JSON.parse(value as string) as unknown;
    if (field === 'image') return value !== null;
    return value;
  };
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of Object.keys(EDITABLE) as (keyof typeof EDITABLE)[]) {
    if (before[EDITABLE[field]] === after[EDITABLE[field]]) continue;
    changes[field] = { before: shown(field, before), after: shown(field, after) };
  }
  return changes;
}

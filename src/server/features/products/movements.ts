import { sql, type RawBuilder } from 'kysely';
import type { MovementSource, StockReason } from '../../../shared/constants.js';
import type { StockMovement } from '../../../shared/schemas/catalogue.js';
import type { DB } from '../../infra/db/handle.js';
import type { StockMovementsTable } from '../../infra/db/schema-products.js';
import { placeInDefault, type StockWrite } from './stock-levels.js';

/** A change of one product's stock, as recorded (migration 010). */
export interface Movement {
  productId: string;
  oldStock: number;
  newStock: number;
  source: MovementSource;
  reason?: StockReason | null;
  note?: string | null;
  /** When it happened (epoch milliseconds). */
  at: number;
  /**
   * The location whose quantity the writer changed itself; without one, the change goes to the
   * default location (stock-levels.ts, `placeInDefault`).
   */
  locationId?: string;
  /** The count whose posting (or undo) made it. */
  countId?: string;
  /** The purchase order it received stock for. */
  purchaseOrderId?: string;
}

/**
 * A product's `last_moved_at` as the movements' trigger sets it for a movement at `at` (migration
 * 042), for the SET of the statement that changes the product's stock: the trigger then finds
 * nothing left to write, and the row and its indexes are written once, not twice.
 */
export const lastMovedAtOnceMovedAt = (at: RawBuilder<unknown>) =>
  sql<number | null>`case when ${at} > created_at and coalesce(last_moved_at < ${at}, true)
    then ${at} else last_moved_at end`;

export type MovementRow = Omit<
  StockMovementsTable,
  'id' | 'actor_id' | 'location_id' | 'purchase_order_id' | 'count_id'
> & {
  id: number;
  actor_id: string | null;
  location_id: string | null;
  purchase_order_id: string | null;
  count_id: string | null;
  /** The actor's name now; null without an actor. */
  actor_name: string | null;
};

/** Rows per INSERT: 11 values each, well under either engine's limit on bound parameters. */
const BATCH_ROWS = 1000;

/**
 * Records stock changes of the catalogue's products, and puts those made without a location in
 * the default one. Called inside the transaction that changes the stock, so a change, its record
 * and the quantities per location commit together or not at all.
 */
export async function recordMovements(
  w: StockWrite & { actorId: string | null },
  movements: Movement[],
  // False for a staged import's products: the locations' units count them when it publishes.
  countUnits = true,
): Promise<number[]> {
  const { trx, catalogueId, actorId } = w;
  const ids: number[] = [];
  for (let i = 0; i < movements.length; i += BATCH_ROWS) {
    const rows = movements.slice(i, i + BATCH_ROWS).map((movement) => ({
      product_id: movement.productId,
      catalogue_id: catalogueId,
      actor_id: actorId,
      created_at: movement.at,
      old_stock: movement.oldStock,
      new_stock: movement.newStock,
      delta: movement.newStock - movement.oldStock,
      source: movement.source,
      note: movement.note ?? null,
      reason: movement.reason ?? null,
      location_id: movement.locationId ?? catalogueId,
      count_id: movement.countId ?? null,
      ...(movement.purchaseOrderId ? { purchase_order_id: movement.purchaseOrderId } : {}),
    }));
    const inserted = await trx.insertInto('stock_movements').values(rows).returning('id').execute();
    for (const { id } of inserted) ids.push(Number(id));
  }
  const unplaced = movements.filter((movement) => movement.locationId === undefined);
  const changes = unplaced.map((m) => ({ productId: m.productId, delta: m.newStock - m.oldStock }));
  await placeInDefault(w, changes, countUnits);
  return ids;
}

/**
 * A page of one product's movements, newest first: up to `rows` with ids below `before`. Scoped by
 * owner like every product query, though the caller has found the product already.
 */
export function movementsQuery(
  db: DB,
  catalogueId: string,
  productId: string,
  options: { before?: number | undefined; reason?: StockReason | undefined; rows: number },
) {
  let query = db
    .selectFrom('stock_movements')
    .leftJoin('users', 'users.id', 'stock_movements.actor_id')
    .select([
      'stock_movements.id',
      'stock_movements.product_id',
      'stock_movements.catalogue_id',
      'stock_movements.created_at',
      'stock_movements.old_stock',
      'stock_movements.new_stock',
      'stock_movements.delta',
      'stock_movements.source',
      'stock_movements.note',
      'stock_movements.reason',
      'stock_movements.actor_id',
      'stock_movements.location_id',
      'stock_movements.purchase_order_id',
      'stock_movements.count_id',
      'users.name as actor_name',
    ])
    .where('stock_movements.product_id', '=', productId)
    .where('stock_movements.catalogue_id', '=', catalogueId);
  if (options.reason !== undefined) {
    query = query.where('stock_movements.reason', '=', options.reason);
  }
  if (options.before !== undefined) query = query.where('stock_movements.id', '<', options.before);
  return query.orderBy('stock_movements.id', 'desc').limit(options.rows);
}

export const toMovement = (row: MovementRow): StockMovement => ({
  id: String(row.id),
  productId: row.product_id,
  createdAt: new Date(row.created_at).toISOString(),
  oldStock: row.old_stock,
  newStock: row.new_stock,
  delta: row.delta,
  source: row.source,
  reason: row.reason,
  note: row.note,
  countId: row.count_id,
  purchaseOrderId: row.purchase_order_id,
  actor:
    row.actor_id && row.actor_name !== null ? { id: row.actor_id, name: row.actor_name } : null,
});

import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { Database } from '../../infra/db/schema.js';
import { enqueueWebhookEvents } from '../webhooks/index.js';
import { effectiveReorderPoint, isToReorder } from '../../../shared/reorder.js';
import { BATCH_ROWS } from './rows.js';

/**
 * The reorder rule in SQL: a product is to reorder when its stock is at or below its own point,
 * or, when it has none, its catalogue's. Rows not written yet are judged by the same rule in
 * src/shared/reorder.ts (the client's too): markedAtCreation.
 */
export const toReorderRule = (
  stock: RawBuilder<unknown>,
  ownPoint: RawBuilder<unknown>,
  cataloguePoint: RawBuilder<unknown>,
) => sql<SqlBool>`${stock} <= coalesce(${ownPoint}, ${cataloguePoint})`;

/** A catalogue's point, as one uncorrelated subquery: both engines evaluate it once a statement. */
const cataloguePointOf = (catalogueId: string) =>
  sql<number>`(select reorder_point from catalogues where id = ${catalogueId})`;

/**
 * The rule for the rows of `products` (unaliased) in one catalogue: the list's `stock=reorder`.
 * @public (for other features: reports)
 */
export const toReorderIn = (catalogueId: string) =>
  toReorderRule(sql.ref('stock'), sql.ref('reorder_point'), cataloguePointOf(catalogueId));

/** A catalogue's point, read in the caller's transaction. */
export async function readCataloguePoint(trx: DB, catalogueId: string): Promise<number> {
  const { reorder_point: point } = await trx
    .selectFrom('catalogues')
    .select('reorder_point')
    .where('id', '=', catalogueId)
    .executeTakeFirstOrThrow();
  return point;
}

/** A product that reached its reorder point, as its announcement names it. */
export interface Crossing {
  id: string;
  name: string;
  stock: number;
  point: number;
}

type Judged = { id: string; name: string; stock: number; reorder_point: number | null };

/**
 * The crossing of a product whose reorder mark is not set, if its stock is at or below the point
 * that applies; none else. Read field by field, nothing copied: an import asks it of each of up
 * to 50,000 new rows.
 */
function crossingOf(row: Judged, cataloguePoint: number): Crossing | undefined {
  if (!isToReorder(row.stock, row.reorder_point, cataloguePoint)) return undefined;
  const point = effectiveReorderPoint(row.reorder_point, cataloguePoint);
  return { id: row.id, name: row.name, stock: row.stock, point };
}

/**
 * A product's reorder mark once its stock and own point are these, as trackReorderCrossings would
 * leave it, for the statement that writes them: `at` when it is now to reorder and was not marked
 * (and that crossing, to announce), cleared when it is back above its point, else kept.
 */
export function markOnceWritten(
  row: Judged & { reorder_crossed_at: number | null },
  cataloguePoint: number,
  at: number,
): { mark: number | null; crossed?: Crossing } {
  const crossed = crossingOf(row, cataloguePoint);
  if (!crossed) return { mark: null };
  if (row.reorder_crossed_at !== null) return { mark: row.reorder_crossed_at };
  return { mark: at, crossed };
}

/** The crossings of new products, given their catalogue's point. */
export function crossingsOf(rows: readonly Judged[], cataloguePoint: number): Crossing[] {
  const crossed: Crossing[] = [];
  for (const row of rows) {
    const crossing = crossingOf(row, cataloguePoint);
    if (crossing) crossed.push(crossing);
  }
  return crossed;
}

/**
 * New products' rows with their reorder marks, for the insert that creates them: `at` for each
 * created at or below the point that applies (`cataloguePoint` read in the insert's transaction),
 * else none; and those crossings, for the caller to announce (onReorderPointsReached) or, staged,
 * to leave to the import's publish. Marked after their insert, such products were written twice,
 * and a second version of a row rewrites every index it is in: on PostgreSQL its search key's
 * trigrams too, half of an import of long descriptions.
 */
export function markedAtCreation<Row extends Judged>(
  rows: readonly Row[],
  cataloguePoint: number,
  at: number,
): { rows: (Row & { reorder_crossed_at: number | null })[]; crossed: Crossing[] } {
  const crossed: Crossing[] = [];
  const marked = rows.map((row) => {
    const crossing = crossingOf(row, cataloguePoint);
    if (crossing) crossed.push(crossing);
    return { ...row, reorder_crossed_at: crossing ? at : null };
  });
  return { rows: marked, crossed };
}

/**
 * Called in the transaction of the write that took products to or below their reorder point, once
 * per crossing (again only after a restock above it): the catalogue's webhooks that listen to
 * 'reorder.reached' are queued with the write, or not at all.
 */
export async function onReorderPointsReached(
  trx: DB,
  catalogueId: string,
  reached: Crossing[],
  at: number,
): Promise<void> {
  // One time for them all: made 100,000 times over, it cost a point change 50 ms of one turn.
  const when = new Date(at).toISOString();
  const events = reached.map((row) => ({
    product: { id: row.id, name: row.name },
    stock: row.stock,
    // The point that applies: its own, else its catalogue's.
    reorderPoint: Number(row.point),
    at: when,
  }));
  await enqueueWebhookEvents(trx, catalogueId, 'reorder.reached', events, at);
}

/**
 * Brings `reorder_crossed_at` in step with the rule for these products of the catalogue, in the
 * caller's write transaction: set to `now` for a product that is now to reorder and was not
 * (calling onReorderPointsReached), cleared for one back above its point. A product already
 * marked keeps its time: it alerts once per crossing. `updated_at` stays: the product's own
 * fields did not change. Any new write path of a stock (an undo, a bulk change) calls it in its
 * transaction (`all`: every product of the catalogue, in one statement). A change of the
 * catalogue's point, which knows which way its products cross, marks them itself
 * (point-change.ts).
 * @public (for other write paths)
 */
export async function trackReorderCrossings(
  trx: DB,
  catalogueId: string,
  ids: readonly string[] | 'all',
  now: number,
  // False while an import stages its products: its publish announces them.
  announce = true,
): Promise<void> {
  // Announced together: thousands of events are queued as a few rows (enqueue.ts).
  const reached: Crossing[] = [];
  const chunks: Among[] = [];
  if (ids === 'all') chunks.push((eb) => eb('catalogue_id', '=', catalogueId));
  for (let i = 0; ids !== 'all' && i < ids.length; i += BATCH_ROWS) {
    const chunk = ids.slice(i, i + BATCH_ROWS);
    chunks.push((eb) => eb('id', 'in', chunk));
  }
  for (const among of chunks) {
    for (const crossing of await trackCrossingsAmong(trx, catalogueId, among, now)) {
      reached.push(crossing);
    }
  }
  if (announce) await onReorderPointsReached(trx, catalogueId, reached, now);
}

/** Which of a catalogue's products trackCrossingsAmong judges. */
type Among = (eb: ExpressionBuilder<Database, 'products'>) => Expression<SqlBool>;

/** Marks and clears the crossings of the products `among` selects; returns the new ones. */
async function trackCrossingsAmong(
  trx: DB,
  catalogueId: string,
  among: Among,
  now: number,
): Promise<Crossing[]> {
  const rule = toReorderIn(catalogueId);
  const changed = await trx
    .selectFrom('products')
    .select(['id', 'name', 'stock', 'reorder_crossed_at'])
    .select(sql<number>`coalesce(reorder_point, ${cataloguePointOf(catalogueId)})`.as('point'))
    .where('catalogue_id', '=', catalogueId)
    .where(among)
    // Crossed one way or the other, among these products only: each side of the `or` is a group
    // of its own, so the catalogue and the products above bound the whole condition.
    .where((eb) =>
      eb.or([
        eb.and([eb('reorder_crossed_at', 'is', null), rule]),
        eb.and([eb('reorder_crossed_at', 'is not', null), eb.not(rule)]),
      ]),
    )
    .execute();
  const crossed = changed.filter((row) => row.reorder_crossed_at === null);
  const restocked = changed.filter((row) => row.reorder_crossed_at !== null);
  for (const [rows, value] of [
    [crossed, now],
    [restocked, null],
  ] as const) {
    for (let i = 0; i < rows.length; i += BATCH_ROWS) {
      const batch = rows.slice(i, i + BATCH_ROWS).map((row) => row.id);
      await trx
        .updateTable('products')
        .set({ reorder_crossed_at: value })
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', batch)
        .execute();
    }
  }
  return crossed;
}

/**
 * `reorder_crossed_at` as trackReorderCrossings leaves it once the product's stock is `stock`: for
 * the SET of the statement that changes the stock itself (unqualified columns of `products`, read
 * before the change), so a bulk change marks and clears its crossings without reading its
 * products again. Marked at `now` when now to reorder and not yet marked, cleared when marked
 * and no longer to reorder, else kept. The caller announces the new marks (onReorderPointsReached).
 */
export const crossedAtOnceStockIs = (
  catalogueId: string,
  stock: RawBuilder<unknown>,
  now: number,
) => {
  const rule = toReorderRule(stock, sql.ref('reorder_point'), cataloguePointOf(catalogueId));
  return sql<number | null>`case
    when reorder_crossed_at is null and ${rule} then ${now}
    when reorder_crossed_at is not null and not (${rule}) then null
    else reorder_crossed_at end`;
};

/** The point that applies to a row of `products` (unaliased): its own, else its catalogue's. */
export const pointThatApplies = (catalogueId: string) =>
  sql<number>`coalesce(reorder_point, ${cataloguePointOf(catalogueId)})`;

import { sql, type Kysely } from 'kysely';
import { LOW_STOCK_THRESHOLD } from '../../../src/shared/constants.js';
import type { Database } from '../../../src/server/infra/db/schema.js';
import { visibleProduct } from '../../../src/server/infra/db/visible-products.js';

const PARTS = ['all', 'low', 'out', 'reorder'] as const;

interface Held {
  stock: number;
  reorder_point: number | null;
}

/** Which products each part holds, under the catalogue's reorder point (the kept totals' rule). */
async function partRules(db: Kysely<Database>, catalogueId: string) {
  const { reorder_point: point } = await db
    .selectFrom('catalogues')
    .select('reorder_point')
    .where('id', '=', catalogueId)
    .executeTakeFirstOrThrow();
  return {
    all: () => true,
    low: (p: Held) => p.stock >= 1 && p.stock <= LOW_STOCK_THRESHOLD,
    out: (p: Held) => p.stock === 0,
    reorder: (p: Held) => p.stock <= (p.reorder_point ?? point),
  };
}

/** The totals of each part, counted again from the catalogue's visible products, exactly. */
export async function recountTotals(db: Kysely<Database>, catalogueId: string) {
  const members = await partRules(db, catalogueId);
  const products = await db
    .selectFrom('products')
    .select(['stock', 'price_cents', 'cost_cents', 'reorder_point'])
    .where('catalogue_id', '=', catalogueId)
    .where(visibleProduct())
    .execute();
  return Object.fromEntries(
    PARTS.map((part) => {
      const rows = products.filter(members[part]);
      const sum = (cents: (p: (typeof products)[number]) => number) =>
        rows.reduce((total, p) => total + BigInt(cents(p)) * BigInt(p.stock), 0n);
      return [
        part,
        {
          count: rows.length,
          units: rows.reduce((total, p) => total + p.stock, 0),
          costed: rows.filter((p) => p.cost_cents !== null).length,
          toReorder: rows.filter(members.reorder).length,
          value: sum((p) => Number(p.price_cents)),
          cost: sum((p) => Number(p.cost_cents ?? 0)),
        },
      ];
    }),
  );
}

/** The totals as kept, in the same shape: the catalogue's, or a location's (migration 061). */
export async function keptTotals(db: Kysely<Database>, catalogueId: string, locationId?: string) {
  const rows = await db
    .selectFrom(locationId === undefined ? 'catalogue_totals' : 'location_totals')
    .selectAll()
    .where('catalogue_id', '=', catalogueId)
    .$if(locationId !== undefined, (query) => query.where(sql.ref('location_id'), '=', locationId!))
    .execute();
  const whole = (low: unknown, middle: unknown, high: unknown) =>
    BigInt(String(low)) + (BigInt(String(middle)) << 16n) + (BigInt(String(high)) << 32n);
  return Object.fromEntries(
    rows.map((row) => [
      row.part,
      {
        count: Number(row.count),
        units: Number(row.units),
        costed: Number(row.costed),
        toReorder: Number(row.to_reorder),
        value: whole(row.value_low, row.value_middle, row.value_high),
        cost: whole(row.cost_low, row.cost_middle, row.cost_high),
      },
    ]),
  );
}

/** The places a location and those under it hold, per part, as kept (migration 066). */
export async function keptPlaces(db: Kysely<Database>, catalogueId: string, locationId: string) {
  const rows = await db
    .selectFrom('location_totals')
    .select(['part', 'places'])
    .where('catalogue_id', '=', catalogueId)
    .where('location_id', '=', locationId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.part, Number(row.places)]));
}

/**
 * The places (stock rows) of the catalogue's visible products in `locationIds`, per part, counted
 * again from the stock rows and products. Each row above 0: a row at 0 is deleted.
 */
export async function recountPlaces(
  db: Kysely<Database>,
  catalogueId: string,
  locationIds: string[],
) {
  const members = await partRules(db, catalogueId);
  const rows = await db
    .selectFrom('stock_levels as sl')
    .innerJoin('products as p', 'p.id', 'sl.product_id')
    .select(['sl.quantity', 'p.stock', 'p.reorder_point'])
    .where('sl.catalogue_id', '=', catalogueId)
    .where('sl.location_id', 'in', locationIds)
    .where(visibleProduct('p'))
    .execute();
  if (rows.some((row) => row.quantity <= 0)) throw new Error('a stock row at or below 0');
  return Object.fromEntries(PARTS.map((part) => [part, rows.filter(members[part]).length]));
}

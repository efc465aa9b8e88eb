import { sql } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import { visibleProduct } from '../../infra/db/visible-products.js';
import type { CountPlaces } from './reads.js';
import type { CountRow } from './rows.js';
import { uncountedPlaces } from './scope.js';

/** Places a count sheet or a count's CSV lists at most. */
export const SHEET_ROWS_MAX = 2000;

/** One place to count on paper: a product at a location. */
export interface SheetRow {
  productId: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  locationId: string;
  path: string;
  /** What the stock says is there now (or the line's `expected` once counted). */
  expected: number;
  /** What was counted, when it was. */
  counted: number | null;
}

/**
 * What a count sheet lists: the places of the scope where the stock says something is, and the
 * places counted already (something found where none was expected), by location path, then
 * product name; at most SHEET_ROWS_MAX of them. Read from the scope and the count's lines down
 * their indexes, like every count read.
 */
export async function sheetRows(db: DB, places: CountPlaces, count: CountRow): Promise<SheetRow[]> {
  const subtree =
    count.scope_kind === 'location'
      ? ((await places.subtree(count.catalogue_id, count.scope_location_id!)) ?? [])
      : [];
  const { rows: held } = await sql<{ product_id: string; location_id: string; quantity: number }>`
    select sl.product_id, sl.location_id, sl.quantity from ${uncountedPlaces(count, subtree, 'all')}
    limit ${SHEET_ROWS_MAX}`.execute(db);
  const lines = await db
    .selectFrom('count_lines')
    .select(['product_id', 'location_id', 'expected', 'counted'])
    .where('count_id', '=', count.id)
    .limit(SHEET_ROWS_MAX)
    .execute();
  const key = (productId: string, locationId: string) => `${productId} ${locationId}`;
  const found = new Map<
    string,
    { productId: string; locationId: string; expected: number; counted: number | null }
  >();
  for (const place of held) {
    found.set(key(place.product_id, place.location_id), {
      productId: place.product_id,
      locationId: place.location_id,
      expected: place.quantity,
      counted: null,
    });
  }
  for (const line of lines) {
    found.set(key(line.product_id, line.location_id), {
      productId: line.product_id,
      locationId: line.location_id,
      expected: line.expected,
      counted: line.counted,
    });
  }
  const all = [...found.values()];
  const productIds = [...new Set(all.map((row) => row.productId))];
  const products = new Map<string, { name: string; sku: string | null; barcode: string | null }>();
  for (let i = 0; i < productIds.length; i += 500) {
    const rows = await db
      .selectFrom('products')
      .select(['id', 'name', 'sku', 'barcode'])
      .where('catalogue_id', '=', count.catalogue_id)
      .where('id', 'in', productIds.slice(i, i + 500))
      .where(visibleProduct())
      .execute();
    for (const row of rows) products.set(row.id, row);
  }
  const locationIds = [...new Set(all.map((row) => row.locationId))];
  const paths =
    locationIds.length > 0
      ? await places.pathsOf(count.catalogue_id, locationIds)
      : new Map<string, string>();
  return all
    .filter((row) => products.has(row.productId))
    .map((row) => ({
      ...row,
      ...products.get(row.productId)!,
      path: paths.get(row.locationId) ?? '',
    }))
    .sort((a, b) =>
      a.path !== b.path
        ? a.path.localeCompare(b.path)
        : a.name !== b.name
          ? a.name.localeCompare(b.name)
          : a.productId < b.productId
            ? -1
            : 1,
    )
    .slice(0, SHEET_ROWS_MAX);
}

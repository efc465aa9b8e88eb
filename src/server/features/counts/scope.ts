import { sql, type RawBuilder } from 'kysely';
import { LOCATION_DEPTH_MAX, PATH_SEPARATOR } from '../../../shared/schemas/locations/locations.js';
import type { CountScopeInput } from '../../../shared/schemas/counts/counts.js';
import { tagKey } from '../../../shared/tags.js';
import type { DB } from '../../infra/db/handle.js';
import { ofVisibleProduct, visibleProduct } from '../../infra/db/visible-products.js';
import type { CountRow } from './rows.js';

/** What identifies a scope among a catalogue's active counts (one each). */
export function scopeKey(scope: CountScopeInput): string {
  switch (scope.kind) {
    case 'location':
      return `location:${scope.locationId}`;
    case 'tag':
      return `tag:${tagKey(scope.tag)}`;
    case 'catalogue':
      return 'catalogue';
  }
}

/**
 * The location and the ones above it, from it up, within the catalogue: at most the tree's depth
 * of primary-key probes. Empty when it is not one of the catalogue's.
 */
async function lineOf(db: DB, catalogueId: string, locationId: string) {
  const line: { id: string; name: string }[] = [];
  let current: string | null = locationId;
  while (current !== null && line.length < LOCATION_DEPTH_MAX) {
    const row = await db
      .selectFrom('locations')
      .select(['id', 'parent_id', 'name'])
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', current)
      .executeTakeFirst();
    if (!row) break;
    line.push(row);
    current = row.parent_id;
  }
  return line;
}

export async function lineageOf(db: DB, catalogueId: string, locationId: string) {
  return (await lineOf(db, catalogueId, locationId)).map((row) => row.id);
}

/**
 * A location's path, by the same probes: a posting's answer names its count's location, and a
 * walk of the tree in one statement may read the catalogue's locations whole on PostgreSQL, which
 * weighs that against probes by its statistics. Null when it is not one of the catalogue's.
 */
export async function pathByProbes(db: DB, catalogueId: string, locationId: string) {
  const line = await lineOf(db, catalogueId, locationId);
  if (line.length === 0) return null;
  return line
    .map((row) => row.name)
    .reverse()
    .join(PATH_SEPARATOR);
}

/** Whether a product at a location is in what the count covers. */
export async function inScope(
  db: DB,
  count: CountRow,
  productId: string,
  locationId: string,
): Promise<boolean> {
  switch (count.scope_kind) {
    case 'catalogue':
      return true;
    case 'location':
      return (await lineageOf(db, count.catalogue_id, locationId)).includes(
        count.scope_location_id!,
      );
    case 'tag': {
      const tagged = await db
        .selectFrom('product_tags')
        .select('product_id')
        .where('product_id', '=', productId)
        .where('tag_key', '=', count.scope_key.slice('tag:'.length))
        .executeTakeFirst();
      return tagged !== undefined;
    }
  }
}

/**
 * The places of the count's scope where the stock says a product is (a stock level above 0) and
 * no line counted it (or all of them: what a count sheet lists), as a FROM clause and its condition: `sl` (stock_levels) and `p` (products).
 * Each read starts from what the scope names (its locations, the tag's products, the
 * catalogue's locations) down an index: the cost follows the scope, never the rest of the
 * catalogue or other catalogues.
 */
export function uncountedPlaces(
  count: CountRow,
  subtree: string[],
  which: 'uncounted' | 'all' = 'uncounted',
): RawBuilder<unknown> {
  // A pending import's products are in no count until it publishes: none to count or zero.
  const held = sql`sl.quantity > 0 and ${visibleProduct('p')}`;
  const notCounted =
    which === 'all'
      ? held
      : sql`${held} and not exists (
      select 1 from count_lines cl
      where cl.count_id = ${count.id} and cl.product_id = sl.product_id
        and cl.location_id = sl.location_id)`;
  switch (count.scope_kind) {
    case 'location':
      // `in ()` is an error on PostgreSQL; a location gone since holds nothing.
      if (subtree.length === 0) return sql`stock_levels sl join products p on 1 = 0 where 1 = 0`;
      return sql`stock_levels sl join products p on p.id = sl.product_id
        where sl.location_id in (${sql.join(subtree)}) and ${notCounted}`;
    case 'tag':
      return sql`product_tags pt
        join stock_levels sl on sl.product_id = pt.product_id
        join products p on p.id = sl.product_id
        where pt.catalogue_id = ${count.catalogue_id}
          and pt.tag_key = ${count.scope_key.slice('tag:'.length)} and ${notCounted}`;
    case 'catalogue':
      // The catalogue's products in order, each one's stock rows down their key: a review's first
      // places (by product and location) are the first rows, with no sort of every place (`cross
      // join` keeps SQLite from starting at the stock rows instead).
      return sql`products p cross join stock_levels sl
        where p.catalogue_id = ${count.catalogue_id} and sl.product_id = p.id and ${notCounted}`;
  }
}

/**
 * How many places of the count's scope were never counted: the places it holds stock in, less
 * the count's lines at one of them. A location's places and those under it are kept in its totals
 * (migration 066), so a location's and the catalogue's (its top locations') are one read by key;
 * a tag's are counted down its products. The lines held are counted down the shorter side: the
 * count's lines, each one's stock row by key, when they are fewer than the places (a count of the
 * whole catalogue's 300,000), else the scope's places, each one's line by key (a bin where many
 * products were found that the stock did not expect; a tag, whose places are counted anyway).
 * `cross join` keeps SQLite to that order; `lines` is how many the count has. The side is chosen
 * from a first read of the kept places; the total is then one statement, places and lines as of
 * one moment, so a write between the two reads cannot make it disagree with itself.
 */
export async function uncountedTotal(
  db: DB,
  count: CountRow,
  subtree: string[],
  lines: number,
): Promise<number> {
  const held = sql`sl.quantity > 0 and ${ofVisibleProduct('sl.product_id')}`;
  const kept = (locations: RawBuilder<unknown>) =>
    sql`(select coalesce(sum(t.places), 0) from location_totals t
      where t.catalogue_id = ${count.catalogue_id} and t.part = 'all'
        and t.location_id in (${locations}))`;
  let inScope: RawBuilder<unknown>;
  let places: RawBuilder<unknown>;
  switch (count.scope_kind) {
    case 'location':
      if (subtree.length === 0) return 0;
      inScope = sql`sl.catalogue_id = ${count.catalogue_id}
        and sl.location_id in (${sql.join(subtree)})`;
      places = kept(sql`${count.scope_location_id}`);
      break;
    case 'tag':
      inScope = sql`sl.product_id in (select pt.product_id from product_tags pt
        where pt.catalogue_id = ${count.catalogue_id}
          and pt.tag_key = ${count.scope_key.slice('tag:'.length)})`;
      places = sql`(select count(*) from stock_levels sl where ${inScope} and ${held})`;
      break;
    case 'catalogue':
      inScope = sql`sl.catalogue_id = ${count.catalogue_id}`;
      places = kept(sql`select l.id from locations l
        where l.catalogue_id = ${count.catalogue_id} and l.parent_id is null`);
      break;
  }
  let fromLines = false;
  if (count.scope_kind !== 'tag') {
    const { rows } = await sql<{ places: number | string }>`select ${places} as places`.execute(db);
    fromLines = lines < Number(rows[0]?.places ?? 0);
  }
  const pairs = fromLines
    ? sql`count_lines cl cross join stock_levels sl`
    : sql`stock_levels sl cross join count_lines cl`;
  const { rows } = await sql<{ total: number | string }>`select
    ${places} - (select count(*) from ${pairs}
      where cl.count_id = ${count.id}
        and sl.product_id = cl.product_id and sl.location_id = cl.location_id
        and ${inScope} and ${held}) as total`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

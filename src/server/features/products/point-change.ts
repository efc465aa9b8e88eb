import { setImmediate } from 'node:timers/promises';
import { sql, type SqlBool } from 'kysely';
import { LOW_STOCK_THRESHOLD } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { bumpCatalogueVersion } from '../writes/index.js';
import { halves } from './exact-sum.js';
import { keysetPages } from './page-loop.js';
import type { Position } from './cursor.js';
import { onReorderPointsReached, readCataloguePoint, type Crossing } from './reorder.js';

/**
 * Products judged in one page when their catalogue's point changes, a page a turn of the event
 * loop. SQLite runs each statement on the event loop: 1,000 are a few milliseconds of it.
 * PostgreSQL runs them in its own process, and each page moves the totals of the same locations
 * again: pages of 10,000 (under a statement's 65,535 bound values) took a change where 70,000
 * products cross from 14-17 s to 7-9 s.
 */
const JUDGED_PER_PAGE: Record<MigrationDialect, number> = { sqlite: 1_000, postgres: 10_000 };

/**
 * Sets a catalogue's reorder point in the caller's transaction. The products that follow it and
 * whose stock lies between the two points enter the `reorder` part (raised) or leave it (lowered):
 * its statement's trigger moves the catalogue's totals (migration 032); the totals of the
 * locations holding them are moved here, and the products that cross either way are marked or
 * unmarked (`markPage`). No other product's mark or total can change, so only those are read,
 * from the index of the list by stock, a page at a time (JUDGED_PER_PAGE), each in a turn of the
 * event loop of its own: the cost follows the products that cross, not the catalogue (all
 * 100,000 of them, judged in one turn, held it for 1.35 s). Its version moves, so no cached list
 * or summary of it answers by the old point.
 */
export async function setCatalogueReorderPoint(
  trx: DB,
  catalogueId: string,
  point: number,
  now: number,
  dialect: MigrationDialect,
): Promise<void> {
  const before = await readCataloguePoint(trx, catalogueId);
  await trx
    .updateTable('catalogues')
    .set({ reorder_point: point, updated_at: now })
    .where('id', '=', catalogueId)
    .execute();
  if (point !== before) {
    const points = { before, after: point };
    // Announced together: thousands of events are queued as a few rows (enqueue.ts).
    const reached: Crossing[] = [];
    for await (const pages of pagesBetween(trx, catalogueId, points, JUDGED_PER_PAGE[dialect])) {
      for (const page of pages) {
        await setImmediate();
        await moveHeldTotals(trx, catalogueId, points, page);
        reached.push(...(await markPage(trx, catalogueId, points, page, now)));
      }
    }
    // The write's last steps and its commit in a turn of their own, not after the last page's.
    await setImmediate();
    await onReorderPointsReached(trx, catalogueId, reached, now);
  }
  await bumpCatalogueVersion(trx, catalogueId);
}

interface Points {
  before: number;
  after: number;
}

/**
 * Some of the products between the two points, in the order of the list by stock: their ids, and
 * their range of that order (past `after`, else from the lower point; up to `upTo`).
 */
interface Page {
  ids: string[];
  after: Position | undefined;
  upTo: Position;
}

/** The stock between two points: above the lower, up to the higher (the rule is "at or below"). */
const between = ({ before, after }: Points) =>
  [Math.min(before, after), Math.max(before, after)] as const;

/**
 * Where a page starts in the index of the list by stock (catalogue, stock, id): past the page
 * before, else above the lower point. One bound of the two: with both, the engine could start
 * every page at the lower point and read the pages before it again.
 */
const pageStart = (low: number, after: Position | undefined, table = 'products') => {
  const [stock, id] = [sql.ref(`${table}.stock`), sql.ref(`${table}.id`)];
  return after === undefined
    ? sql<SqlBool>`${stock} > ${low}`
    : sql<SqlBool>`(${stock}, ${id}) > (${after.key}, ${after.id})`;
};

/** A page's range of the index of the list by stock (the rows of `products` as `table`). */
const pageRange = (points: Points, page: Page, table = 'products') => {
  const [stock, id] = [sql.ref(`${table}.stock`), sql.ref(`${table}.id`)];
  return sql<SqlBool>`${pageStart(between(points)[0], page.after, table)}
    and (${stock}, ${id}) <= (${page.upTo.key}, ${page.upTo.id})`;
};

/**
 * The catalogue's products that follow its point and whose stock lies between the two points,
 * `perPage` at a time (one page per step of the walk), read from the index of the list by
 * stock alone: it holds every product, and each one's own point (migration 044).
 */
function pagesBetween(
  trx: DB,
  catalogueId: string,
  points: Points,
  perPage: number,
): AsyncGenerator<Page[]> {
  const [low, high] = between(points);
  return keysetPages<Page>(async (after) => {
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'stock'])
      .where('catalogue_id', '=', catalogueId)
      .where('reorder_point', 'is', null)
      .where(pageStart(low, after))
      .where('stock', '<=', high)
      .orderBy('stock')
      .orderBy('id')
      .limit(perPage)
      .execute();
    const last = rows.at(-1);
    if (!last) return { rows: [], next: undefined };
    const upTo = { key: last.stock, id: last.id };
    const page = { ids: rows.map((row) => row.id), after, upTo };
    return { rows: [page], next: rows.length < perPage ? undefined : upTo };
  });
}

/**
 * What a page of the products between the points changes in the totals of each location holding
 * them (migration 061's rule): raised, each enters the location's `reorder` part with the units
 * it holds there, and counts as to reorder in every part it is in; lowered, the reverse. Products
 * of an import not published yet count nowhere. The page is named by its range and by its ids:
 * by its ids alone, SQLite read the catalogue's whole index of the list by stock; by its range
 * alone, PostgreSQL expected many rows and read every tenant's holdings to join them.
 *
 * Each location's sums are made once, then spread over its parts (`g` before `k`: the other way
 * round SQLite made them again for each part), and the moves are materialized before the totals
 * are found by their key: given the catalogue as a value, SQLite read all of its totals for each
 * page (four rows a location: 40,000 beside 10,000 bins) to find the few thousand it moves. At
 * 100,000 products crossing, 2.6 s of totals became 1.6 s.
 */
async function moveHeldTotals(
  trx: DB,
  catalogueId: string,
  points: Points,
  page: Page,
): Promise<void> {
  const sign = sql.lit(points.after > points.before ? 1 : -1);
  const units = sql`${sign} * h.units`;
  const [value0, value1, value2] = halves(sql`p.price_cents`, units);
  const [cost0, cost1, cost2] = halves(sql`coalesce(p.cost_cents, 0)`, units);
  // What each location gains in its `reorder` part: each column summed once per location.
  const sums = {
    count: sign,
    units,
    costed: sql`case when p.cost_cents is null then 0 else ${sign} end`,
    value_low: value0,
    value_middle: value1,
    value_high: value2,
    cost_low: cost0,
    cost_middle: cost1,
    cost_high: cost2,
    places: sql`${sign} * h.stock_rows`,
  };
  const columns = [...Object.keys(sums), 'to_reorder'];
  const set = sql.join(
    columns.map(
      (column) =>
        sql`${sql.ref(column)} = ${sql.ref(`location_totals.${column}`)} + ${sql.ref(`d.${column}`)}`,
    ),
  );
  const summed = sql.join(
    Object.entries(sums).map(([column, value]) => sql`sum(${value}) as ${sql.ref(column)}`),
  );
  const inReorder = sql.join(
    Object.keys(sums).map((column) => {
      const [gained, as] = [sql.ref(`g.${column}`), sql.ref(column)];
      return sql`case when k.part = 'reorder' then ${gained} else 0 end as ${as}`;
    }),
  );
  const low = sql`p.stock between 1 and ${sql.lit(LOW_STOCK_THRESHOLD)}`;
  await sql`with d as materialized (
      select ${catalogueId} as catalogue_id, g.location_id, k.part, ${inReorder},
        case k.part when 'low' then g.low when 'out' then g.out else g.count end as to_reorder
      from (select h.location_id, ${summed},
          sum(case when ${low} then ${sign} else 0 end) as low,
          sum(case when p.stock = 0 then ${sign} else 0 end) as out
        from products p
        join location_holdings h on h.product_id = p.id
        where p.catalogue_id = ${catalogueId} and p.reorder_point is null
          and ${pageRange(points, page, 'p')} and p.id in (${sql.join(page.ids)})
          and (p.import_id is null or p.import_id not in (select id from pending_imports))
        group by h.location_id) g
      cross join (select 'all' as part union all select 'low' union all select 'out'
        union all select 'reorder') k
      where k.part in ('all', 'reorder') or (k.part = 'low' and g.low <> 0)
        or (k.part = 'out' and g.out <> 0))
    update location_totals set ${set}
    from d
    where location_totals.catalogue_id = d.catalogue_id
      and location_totals.location_id = d.location_id and location_totals.part = d.part`.execute(
    trx,
  );
}

/**
 * Sets or clears the reorder marks of a page, in one statement: each of its products crosses the
 * way the point moved (the rule of `reorder.ts`: raised, each is now at or below the point and was
 * not, so it was not marked; lowered, the reverse). Returns the new crossings, to announce. A
 * mark already set stays as it is; a lowered page is cleared whole, without asking which are
 * marked: so asked, SQLite reads the index of the marked by the page's stock values, each of them
 * whole for each page.
 */
async function markPage(
  trx: DB,
  catalogueId: string,
  points: Points,
  page: Page,
  now: number,
): Promise<Crossing[]> {
  const raised = points.after > points.before;
  const update = trx
    .updateTable('products')
    .set({ reorder_crossed_at: raised ? now : null })
    .where('catalogue_id', '=', catalogueId)
    .where('reorder_point', 'is', null)
    .where(pageRange(points, page));
  if (!raised) {
    await update.execute();
    return [];
  }
  const rows = await update
    .where('reorder_crossed_at', 'is', null)
    .returning(['id', 'name', 'stock'])
    .execute();
  return rows.map((row) => ({ ...row, point: points.after }));
}

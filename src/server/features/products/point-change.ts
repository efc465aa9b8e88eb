import { setImmediate } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import { LOW_STOCK_THRESHOLD } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import { bumpCatalogueVersion } from '../writes/index.js';
import { halves } from './exact-sum.js';
import {
  onReorderPointsReached,
  readCataloguePoint,
  trackCrossingsAmong,
  type Crossing,
} from './reorder.js';

/** Products judged in one turn of the event loop when their catalogue's point changes. */
const JUDGED_PER_TURN = 1_000;

/** A catalogue's products by id: after `after` (else from the first), up to `upTo` (else all). */
interface IdRange {
  after: string | undefined;
  upTo: string | undefined;
}

/**
 * Sets a catalogue's reorder point in the caller's transaction. The products that follow it and
 * whose stock lies between the two points enter the `reorder` part (raised) or leave it (lowered):
 * its statement's trigger moves the catalogue's totals (migration 032); the totals of the
 * locations holding them are moved here, and the products that cross either way are marked
 * (tracked as any write's), JUDGED_PER_TURN products at a time, each range in a turn of the event
 * loop of its own: in one, 100,000 products held it for 1.35 s. Its version moves,
 * so no cached list or summary of it answers by the old point.
 */
export async function setCatalogueReorderPoint(
  trx: DB,
  catalogueId: string,
  point: number,
  now: number,
): Promise<void> {
  const before = await readCataloguePoint(trx, catalogueId);
  await trx
    .updateTable('catalogues')
    .set({ reorder_point: point, updated_at: now })
    .where('id', '=', catalogueId)
    .execute();
  if (point !== before) {
    // Announced together: thousands of events are queued as a few rows (enqueue.ts).
    const reached: Crossing[] = [];
    for await (const range of idRanges(trx, catalogueId)) {
      await setImmediate();
      await moveHeldTotals(trx, catalogueId, { before, after: point }, range);
      const among = await trackCrossingsAmong(
        trx,
        catalogueId,
        (eb) =>
          eb.and([
            ...(range.after === undefined ? [] : [eb('id', '>', range.after)]),
            ...(range.upTo === undefined ? [] : [eb('id', '<=', range.upTo)]),
          ]),
        now,
      );
      for (const crossing of among) reached.push(crossing);
    }
    await onReorderPointsReached(trx, catalogueId, reached, now);
  }
  await bumpCatalogueVersion(trx, catalogueId);
}

/** The catalogue's products as ranges of JUDGED_PER_TURN ids, read down its index by id. */
async function* idRanges(trx: DB, catalogueId: string): AsyncGenerator<IdRange> {
  let after: string | undefined;
  for (;;) {
    const edge = await trx
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .$if(after !== undefined, (query) => query.where('id', '>', after!))
      .orderBy('id')
      .limit(1)
      .offset(JUDGED_PER_TURN - 1)
      .executeTakeFirst();
    yield { after, upTo: edge?.id };
    if (edge === undefined) return;
    after = edge.id;
  }
}

type Sql = RawBuilder<unknown>;

/**
 * What the products of `range` that follow the catalogue's point and lie between the two points
 * change in the totals of each location holding them (migration 061's rule): raised, each enters
 * the location's `reorder` part with the units it holds there, and counts as to reorder in every
 * part it is in; lowered, the reverse. Products of an import not published yet count nowhere.
 */
async function moveHeldTotals(
  trx: DB,
  catalogueId: string,
  points: { before: number; after: number },
  range: IdRange,
): Promise<void> {
  const sign = points.after > points.before ? 1 : -1;
  const [low, high] = [
    Math.min(points.before, points.after),
    Math.max(points.before, points.after),
  ];
  const units = sql`${sql.lit(sign)} * h.units`;
  const inReorder = (value: Sql) => sql`sum(case when k.part = 'reorder' then ${value} else 0 end)`;
  const [value0, value1, value2] = halves(sql`p.price_cents`, units);
  const [cost0, cost1, cost2] = halves(sql`coalesce(p.cost_cents, 0)`, units);
  const columns = [
    'count',
    'units',
    'costed',
    'to_reorder',
    'value_low',
    'value_middle',
    'value_high',
    'cost_low',
    'cost_middle',
    'cost_high',
  ];
  const set = sql.join(
    columns.map(
      (column) =>
        sql`${sql.ref(column)} = ${sql.ref(`location_totals.${column}`)} + ${sql.ref(`d.${column}`)}`,
    ),
  );
  await sql`update location_totals set ${set}
    from (select h.location_id, k.part,
        ${inReorder(sql.lit(sign))} as count,
        ${inReorder(units)} as units,
        ${inReorder(sql`(case when p.cost_cents is null then 0 else ${sql.lit(sign)} end)`)} as costed,
        sum(${sql.lit(sign)}) as to_reorder,
        ${inReorder(value0)} as value_low,
        ${inReorder(value1)} as value_middle,
        ${inReorder(value2)} as value_high,
        ${inReorder(cost0)} as cost_low,
        ${inReorder(cost1)} as cost_middle,
        ${inReorder(cost2)} as cost_high
      from products p
      join location_holdings h on h.product_id = p.id
      join (select 'all' as part union all select 'low' union all select 'out'
        union all select 'reorder') k
        on k.part in ('all', 'reorder')
          or (k.part = 'low' and p.stock between 1 and ${sql.lit(LOW_STOCK_THRESHOLD)})
          or (k.part = 'out' and p.stock = 0)
      where p.catalogue_id = ${catalogueId} and p.reorder_point is null
        and p.stock > ${low} and p.stock <= ${high}
        and (p.import_id is null or p.import_id not in (select id from pending_imports))
        ${range.after === undefined ? sql`` : sql`and p.id > ${range.after}`}
        ${range.upTo === undefined ? sql`` : sql`and p.id <= ${range.upTo}`}
      group by h.location_id, k.part) d
    where location_totals.catalogue_id = ${catalogueId}
      and location_totals.location_id = d.location_id and location_totals.part = d.part`.execute(
    trx,
  );
}

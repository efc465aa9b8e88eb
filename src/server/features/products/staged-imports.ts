import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { LOW_STOCK_THRESHOLD } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import { nextTurn } from '../../lib/turns.js';
import type { CatalogueWrite } from '../writes/index.js';
import { rethrowCodeTaken } from './codes.js';
import { recordMovements } from './movements.js';
import { announceStaged, trackReorderCrossings } from './reorder.js';
import { addUnits } from './stock-levels.js';
import type { StagedProducts } from './import-writes.js';
import { insertTags } from './write-helpers.js';

/**
 * How long a staging import's lease runs: renewed with every batch (a few tens of milliseconds
 * apart), so only a process that died or stalled this long loses it to the sweep.
 */
const LEASE_MS = 60_000;
/** Staged products deleted a transaction when an import fails (as the sweep does). */
const DROPPED_A_TRANSACTION = 100;

/** An import whose new products are staged: invisible until it publishes. */
export interface StagedImport {
  id: string;
  catalogueId: string;
  created: number;
}

/** The import's lease, renewed only while it is live: false once it ran out (being swept). */
async function renewLease(trx: DB, importId: string, now: number): Promise<boolean> {
  const renewed = await trx
    .updateTable('pending_imports')
    .set({ lease_until: now + LEASE_MS })
    .where('id', '=', importId)
    .where('lease_until', '>=', now)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

class LeaseLost extends Error {
  constructor() {
    super('The import stalled past its lease; its staged products are being swept');
  }
}

/**
 * Writes an import's new products (SQLite) in short transactions, a batch of `batches` each, with
 * a turn of the event loop between them: other writers wait for one batch at most. The products,
 * their tags, movements and stock in the default location are written as a creation writes them,
 * marked with the import, so no read and no kept total sees them (migrations 037, 039); the
 * locations' units and the reorder webhooks wait for the publish. On any failure what was staged
 * is deleted before the error goes on (a conflict of codes is the usual 409).
 */
export async function stageImport(
  db: DB,
  target: { id: string; actorId: string | null },
  batches: StagedProducts,
  isGone: () => boolean = () => false,
): Promise<StagedImport> {
  const staged: StagedImport = { id: randomUUID(), catalogueId: target.id, created: 0 };
  const now = Date.now();
  await db
    .insertInto('pending_imports')
    .values({
      id: staged.id,
      catalogue_id: target.id,
      lease_until: now + LEASE_MS,
      created_at: now,
    })
    .execute();
  try {
    for (const batch of batches) {
      if (batch.length === 0) continue;
      if (isGone()) throw new Error('The client went away during the import');
      await db.transaction().execute(async (trx) => {
        if (!(await renewLease(trx, staged.id, Date.now()))) throw new LeaseLost();
        const rows = batch.map((row) => ({ ...row, import_id: staged.id }));
        await trx.insertInto('products').values(rows).execute();
        await insertTags(trx, target.id, batch);
        const movements = batch.map((row) => ({
          productId: row.id,
          oldStock: 0,
          newStock: row.stock,
          source: 'import' as const,
          at: row.created_at,
        }));
        await recordMovements(trx, target.id, target.actorId, movements, false);
        const at = Math.max(...batch.map((row) => row.created_at));
        const ids = batch.map((row) => row.id);
        await trackReorderCrossings(trx, target.id, ids, at, false);
      });
      staged.created += batch.length;
      await nextTurn();
    }
  } catch (error) {
    await dropImport(db, staged);
    rethrowCodeTaken(error);
  }
  return staged;
}

/** Deletes a failed import's staged products, a short transaction at a time, then its row. */
export async function dropImport(db: DB, staged: StagedImport): Promise<void> {
  for (;;) {
    const rows = await db
      .deleteFrom('products')
      .where(
        'id',
        'in',
        db
          .selectFrom('products')
          .select('id')
          .where('import_id', '=', staged.id)
          .limit(DROPPED_A_TRANSACTION),
      )
      .executeTakeFirst();
    if (Number(rows.numDeletedRows) < DROPPED_A_TRANSACTION) break;
    await nextTurn();
  }
  await db.deleteFrom('pending_imports').where('id', '=', staged.id).execute();
}

/** What one product adds to each column of `catalogue_totals` (migration 032), signs aside. */
const TOTALS = (point: string): Record<string, string> => {
  const halves = (cents: string, name: string) => ({
    [`${name}_low`]: `(${cents} & 65535) * (r.stock & 65535)`,
    [`${name}_middle`]: `(${cents} & 65535) * (r.stock >> 16) + (${cents} >> 16) * (r.stock & 65535)`,
    [`${name}_high`]: `(${cents} >> 16) * (r.stock >> 16)`,
  });
  return {
    count: '1',
    units: 'r.stock',
    costed: 'case when r.cost_cents is null then 0 else 1 end',
    to_reorder: `case when r.stock <= coalesce(r.reorder_point, ${point}) then 1 else 0 end`,
    ...halves('r.price_cents', 'value'),
    ...halves('coalesce(r.cost_cents, 0)', 'cost'),
  };
};

/**
 * Publishes a staged import in the write's transaction (SQLite): its lease checked, its products
 * added to the catalogue's totals and days and their units to the default location (each summed
 * once over the import's partial index), its reorder crossings announced, then its pending row
 * deleted, which makes every one of its products visible at the commit. No product row is written.
 */
export async function publishImport(w: CatalogueWrite, staged: StagedImport): Promise<number> {
  const { trx, catalogueId } = w;
  if (!(await renewLease(trx, staged.id, Date.now()))) throw new LeaseLost();
  const sums = Object.entries(TOTALS('c.reorder_point'))
    .map(([column, value]) => `coalesce(sum(${value}), 0) as ${column}`)
    .join(', ');
  const sets = Object.keys(TOTALS('c.reorder_point'))
    .map((column) => `${column} = catalogue_totals.${column} + d.${column}`)
    .join(', ');
  const inPart = `(k.part = 'all' or (k.part = 'low' and r.stock between 1 and ${LOW_STOCK_THRESHOLD})
    or (k.part = 'out' and r.stock = 0)
    or (k.part = 'reorder' and r.stock <= coalesce(r.reorder_point, c.reorder_point)))`;
  await sql`update catalogue_totals set ${sql.raw(sets)}
    from (select k.part, ${sql.raw(sums)}
      from products r
      join catalogues c on c.id = r.catalogue_id
      join (select 'all' as part union all select 'low' union all select 'out'
        union all select 'reorder') k on ${sql.raw(inPart)}
      where r.import_id = ${staged.id}
      group by k.part) d
    where catalogue_totals.catalogue_id = ${catalogueId} and catalogue_totals.part = d.part`.execute(
    trx,
  );
  const parts = (cents: string, units: string) => [
    `(${cents} & 65535) * (${units} & 65535)`,
    `(${cents} & 65535) * (${units} >> 16) + (${cents} >> 16) * (${units} & 65535)`,
    `(${cents} >> 16) * (${units} >> 16)`,
  ];
  const daySums = parts('p.price_cents', 'm.delta')
    .map((part) => `sum(${part})`)
    .join(', ');
  await sql`insert into catalogue_days (catalogue_id, day, units, value_low, value_middle, value_high)
    select m.catalogue_id, m.created_at / 86400000, sum(m.delta), ${sql.raw(daySums)}
    from products p join stock_movements m on m.product_id = p.id
    where p.import_id = ${staged.id}
    group by m.catalogue_id, m.created_at / 86400000
    on conflict (catalogue_id, day) do update set units = catalogue_days.units + excluded.units,
      value_low = catalogue_days.value_low + excluded.value_low,
      value_middle = catalogue_days.value_middle + excluded.value_middle,
      value_high = catalogue_days.value_high + excluded.value_high`.execute(trx);
  const placed = await trx
    .selectFrom('products')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stock'), eb.lit(0)).as('units'))
    .where('import_id', '=', staged.id)
    .executeTakeFirstOrThrow();
  // New products' stock went to the default location, whose id is the catalogue's.
  await addUnits(trx, catalogueId, new Map([[catalogueId, Number(placed.units)]]));
  await announceStaged(trx, catalogueId, staged.id, w.now);
  await trx.deleteFrom('pending_imports').where('id', '=', staged.id).execute();
  return staged.created;
}

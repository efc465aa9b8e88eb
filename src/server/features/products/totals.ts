import { sql } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { TotalsPart } from '../../infra/db/schema-catalogues.js';

const HALVES = ['low', 'middle', 'high'] as const;

/**
 * The totals the database keeps for a part of a catalogue (migration 032: its triggers update
 * them in every write's transaction): one row, however large the catalogue. Each sum of money is
 * kept in three parts, read as text (a part may pass 2^53) and put together exactly.
 * @public (for other features: reports)
 */
export async function keptTotals(db: DB, catalogueId: string, part: TotalsPart) {
  const totals = await keptRow(db, catalogueId, part);
  if (!totals) throw new Error(`No kept totals for catalogue ${catalogueId}`);
  return totals;
}

/**
 * The totals the database keeps for a part of what a location and those under it hold
 * (migration 061): one row by key, its catalogue in the key; undefined for a location that is
 * not the catalogue's.
 */
export function keptHeld(db: DB, catalogueId: string, locationId: string, part: TotalsPart) {
  return keptRow(db, catalogueId, part, locationId);
}

/** A part's kept row: the catalogue's, or a location's. */
async function keptRow(db: DB, catalogueId: string, part: TotalsPart, locationId?: string) {
  const row = await db
    .selectFrom(locationId === undefined ? 'catalogue_totals' : 'location_totals')
    .select(COUNTS)
    .select(money())
    .where('catalogue_id', '=', catalogueId)
    .$if(locationId !== undefined, (query) => query.where(sql.ref('location_id'), '=', locationId!))
    .where('part', '=', part)
    .executeTakeFirst();
  return row && fromRow(row);
}

const COUNTS = ['count', 'units', 'costed', 'to_reorder'] as const;

/** Each sum of money's three parts, read as text (a part may pass 2^53). */
const money = () =>
  ['value', 'cost'].flatMap((name) =>
    HALVES.map((half) =>
      sql<string>`cast(${sql.ref(`${name}_${half}`)} as text)`.as(`${name}_${half}`),
    ),
  );

/** A kept row's totals, each sum of money put together exactly. */
function fromRow(row: Record<(typeof COUNTS)[number], number>) {
  const whole = (name: string) => {
    const [low, middle, high] = HALVES.map((half) =>
      BigInt((row as Record<string, unknown>)[`${name}_${half}`] as string),
    );
    return low! + (middle! << 16n) + (high! << 32n);
  };
  return {
    count: row.count,
    units: row.units,
    costed: row.costed,
    toReorder: row.to_reorder,
    valueCents: whole('value'),
    valueAtCostCents: whole('cost'),
  };
}

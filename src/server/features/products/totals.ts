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
  const money = ['value', 'cost'].flatMap((name) =>
    HALVES.map((half) =>
      sql<string>`cast(${sql.ref(`${name}_${half}`)} as text)`.as(`${name}_${half}`),
    ),
  );
  const row = await db
    .selectFrom('catalogue_totals')
    .select(['count', 'units', 'costed', 'to_reorder'])
    .select(money)
    .where('catalogue_id', '=', catalogueId)
    .where('part', '=', part)
    .executeTakeFirstOrThrow();
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

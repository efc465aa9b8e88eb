import { sql, type AliasedRawBuilder, type RawBuilder } from 'kysely';
import type { MigrationDialect } from '../../infra/db/migrate.js';

/**
 * cents × units as three products of 16-bit halves, low to high (whole = low + middle·2^16 +
 * high·2^32), exact for negative units too: what SQLite sums without overflow (exactSum, below) and what
 * the kept totals hold in their `_low`, `_middle` and `_high` columns.
 */
export function halves(
  cents: RawBuilder<unknown>,
  units: RawBuilder<unknown>,
): [RawBuilder<unknown>, RawBuilder<unknown>, RawBuilder<unknown>] {
  const [c0, c1] = [sql`(${cents} & 65535)`, sql`(${cents} >> 16)`];
  const [u0, u1] = [sql`(${units} & 65535)`, sql`(${units} >> 16)`];
  return [sql`${c0} * ${u0}`, sql`${c0} * ${u1} + ${c1} * ${u0}`, sql`${c1} * ${u1}`];
}

/**
 * Σ cents × units over a selection, exact however large, on both engines: a price (or a cost) of
 * up to 9,999,999,999 cents times a stock of up to 2^31 − 1, summed over any number of rows.
 *
 * PostgreSQL adds them as `numeric`, exact at any size (the driver hands it over as text).
 * SQLite adds 64-bit integers and would overflow: one row's product alone can pass 2^63, and
 * `total()` adds doubles, which lose cents past 2^53. So each factor is cut into 16-bit halves
 * (cents = c1·2^16 + c0 with c1 < 2^18, units = u1·2^16 + u0 with u1 < 2^15), and SQLite sums
 * three products of halves, each below 2^35 per row, so no sum overflows before 2^28 rows; the
 * parts come back as text and are put back together here, in BigInt.
 */
export function exactSum(dialect: MigrationDialect, cents: string, units: string, as: string) {
  const names = { whole: as, low: `${as}_low`, middle: `${as}_middle`, high: `${as}_high` };
  if (dialect === 'postgres') {
    const whole = sql<string>`coalesce(sum(${sql.ref(cents)}::numeric * ${sql.ref(units)}), 0)`;
    return {
      selections: [whole.as(names.whole)] as AliasedRawBuilder[],
      read: (row: Record<string, unknown>) => BigInt(String(row[names.whole])),
    };
  }
  const [low, middle, high] = halves(sql.ref(cents), sql.ref(units));
  // As text: the driver would hand a sum past 2^53 over as an inexact number.
  const part = (expression: RawBuilder<unknown>, name: string) =>
    sql<string>`cast(coalesce(sum(${expression}), 0) as text)`.as(name);
  return {
    selections: [
      part(low, names.low),
      part(middle, names.middle),
      part(high, names.high),
    ] as AliasedRawBuilder[],
    read: (row: Record<string, unknown>) => {
      const [low, middle, high] = [names.low, names.middle, names.high].map((name) =>
        BigInt(String(row[name])),
      );
      return low! + (middle! << 16n) + (high! << 32n);
    },
  };
}

/** Cents as an exact decimal of dollars: 123456n → "1234.56". */
const centsToDecimal = (cents: bigint) =>
  `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/**
 * A sum of money as the API sends it: a JSON number while that number's text is exactly the
 * amount (any total under about $70 trillion, and some beyond), else the exact decimal as a
 * string. A double holds every cent only up to 2^53 cents, and near that bound its shortest text
 * already rounds to a neighbouring cent.
 */
export function moneyTotal(cents: bigint): number | string {
  const text = centsToDecimal(cents);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return text;
  const number = Number(text);
  return String(number) === text.replace(/\.?0+$/, '') ? number : text;
}

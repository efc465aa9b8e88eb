import type { Selectable } from 'kysely';
import type { CatalogueRole } from '../../../shared/catalogue-roles.js';
import { can } from '../../../shared/catalogue-roles.js';
import type { Count, CountLine, CountScope } from '../../../shared/schemas/counts/counts.js';
import type { CountsTable } from '../../infra/db/schema-counts.js';
import { moneyTotal } from '../products/index.js';

export type CountRow = Selectable<CountsTable>;

/** A count's row with its creator's name. */
export type CountRowWithCreator = CountRow & { creator_name: string | null };

/** A line's row as the answers need it. */
export interface LineRow {
  product_id: string;
  location_id: string;
  expected: number;
  counted: number;
  counted_by: string | null;
  counted_at: number | string;
  name: string;
  sku: string | null;
  barcode: string | null;
  cost_cents: number | null;
  counter_name: string | null;
}

const iso = (at: number | string) => new Date(Number(at)).toISOString();

/**
 * Whether answers of this count leave `expected` out for this role: a blind count hides it from
 * everyone but owners and admins until its review (a count cancelled while open was never
 * reviewed, and keeps it hidden).
 */
export const hidesExpected = (row: CountRow, role: CatalogueRole) =>
  row.blind === 1 &&
  (row.status === 'open' || row.status === 'cancelled') &&
  !can(role, 'seeBlindExpected');

/** Dollars of signed cents, exact (see moneyTotal). */
export const signedMoney = (cents: bigint): number | string => {
  if (cents >= 0n) return moneyTotal(cents);
  const shown = moneyTotal(-cents);
  return typeof shown === 'number' ? -shown : `-${shown}`;
};

export function presentCount(row: CountRowWithCreator, path: string | null): Count {
  const scope: CountScope =
    row.scope_kind === 'location'
      ? { kind: 'location', locationId: row.scope_location_id!, path }
      : row.scope_kind === 'tag'
        ? { kind: 'tag', tag: row.scope_tag! }
        : { kind: 'catalogue' };
  return {
    id: row.id,
    name: row.name,
    scope,
    blind: row.blind === 1,
    status: row.status,
    createdBy:
      row.created_by !== null && row.creator_name !== null
        ? { id: row.created_by, name: row.creator_name }
        : null,
    createdAt: iso(row.created_at),
    lines: Number(row.lines),
  };
}

export function presentLine(row: LineRow, hidden: boolean): CountLine {
  const line: CountLine = {
    productId: row.product_id,
    name: row.name,
    sku: row.sku,
    barcode: row.barcode,
    locationId: row.location_id,
    counted: row.counted,
    countedBy:
      row.counted_by !== null && row.counter_name !== null
        ? { id: row.counted_by, name: row.counter_name }
        : null,
    countedAt: iso(row.counted_at),
  };
  if (hidden) return line;
  const variance = row.counted - row.expected;
  return {
    ...line,
    expected: row.expected,
    variance,
    varianceAtCost:
      row.cost_cents === null ? null : signedMoney(BigInt(variance) * BigInt(row.cost_cents)),
  };
}

import { setImmediate } from 'node:timers/promises';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { MigrationDialect } from '../../infra/db/migrate.js';

/*
 * Writes of many rows in a few statements whatever their number (a count's posting, a transfer):
 * the rows are a table of the statement, joined to what they change down its key.
 */

/**
 * Rows per write statement, a turn of the event loop between two. SQLite runs each statement on
 * the event loop, its row triggers included (a movement's days and windows, a product's totals):
 * 250 rows hold it for tens of milliseconds, where 1,000 held it for a quarter of a second.
 * PostgreSQL's run on its server, so fewer round trips: 1,000 rows.
 */
const WRITE_ROWS = { sqlite: 250, postgres: 1_000 } as const;

/** Runs `write` on each WRITE_ROWS slice of the rows in turn, a turn of the event loop before each. */
export async function eachSlice<T>(
  dialect: MigrationDialect,
  rows: readonly T[],
  write: (slice: T[]) => Promise<unknown>,
) {
  const size = WRITE_ROWS[dialect];
  for (let i = 0; i < rows.length; i += size) {
    await setImmediate();
    await write(rows.slice(i, i + size));
  }
}

export type Column = readonly [name: string, type: 'text' | 'integer' | 'bigint'];

/**
 * Rows given as one table of a statement (alias it), in a text that stays the same whatever their
 * number: SQLite reads them from one JSON parameter, PostgreSQL from one array per column. `n`
 * numbers them in their order.
 */
export function rowsTable(
  dialect: MigrationDialect,
  columns: readonly Column[],
  rows: readonly (string | number)[][],
): RawBuilder<unknown> {
  if (dialect === 'sqlite') {
    const picks = columns.map(
      ([name], i) => sql`value ->> ${sql.raw(String(i))} as ${sql.id(name)}`,
    );
    return sql`(select key as n, ${sql.join(picks)} from json_each(${JSON.stringify(rows)}))`;
  }
  const arrays = columns.map(
    ([, type], i) => sql`cast(${rows.map((row) => row[i])} as ${sql.raw(type)}[])`,
  );
  const names = sql.join(columns.map(([name]) => sql.id(name)));
  return sql`(select * from unnest(${sql.join(arrays)}) with ordinality as t(${names}, n))`;
}

/**
 * A table's `catalogue_id` in a statement that joins it to rowsTable on its key. SQLite takes a
 * JSON table for a small one and would read the whole catalogue down its index, probing the JSON
 * for each row (minutes for 10,000 rows): the unary `+` keeps the index out of reach, so each of
 * the rows probes the table's key instead.
 */
export const catalogueOf = (dialect: MigrationDialect, table: 'products' | 'locations') =>
  dialect === 'sqlite'
    ? sql`+${sql.ref(`${table}.catalogue_id`)}`
    : sql.ref(`${table}.catalogue_id`);

/**
 * Locations found by their ids, then checked to be the catalogue's: told `catalogue_id = ?`,
 * PostgreSQL walks a catalogue's locations by their parents' index when its statistics say it has
 * few, and SQLite its catalogue's index (catalogueOf).
 */
export const locationsOf = (dialect: MigrationDialect, catalogueId: string) =>
  dialect === 'postgres'
    ? sql<SqlBool>`locations.catalogue_id || '' = ${catalogueId}`
    : sql<SqlBool>`+locations.catalogue_id = ${catalogueId}`;

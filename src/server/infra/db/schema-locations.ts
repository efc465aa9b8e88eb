import type { Generated } from 'kysely';
import type { CatalogueTotalsTable } from './schema-catalogues.js';

// The locations' tables. schema.ts says how times, booleans and money are stored.

/**
 * A place stock is kept (migration 028), in a tree per catalogue. The default location's id is
 * its catalogue's; `name_key` and `code_key` are what siblings' names and a catalogue's codes are
 * unique by (folded to lower case).
 */
export interface LocationsTable {
  id: string;
  catalogue_id: string;
  /** Null at the top of the tree. */
  parent_id: string | null;
  name: string;
  name_key: string;
  code: string;
  code_key: string;
  created_at: number;
  updated_at: number;
  /** The units the location itself holds (migration 032): its stock levels' sum. */
  units: Generated<number>;
}

/**
 * A product's quantity in one location (migration 032), only where it has some. A product's
 * `stock` is the sum of its rows.
 */
export interface StockLevelsTable {
  product_id: string;
  location_id: string;
  catalogue_id: string;
  quantity: number;
}

/**
 * Each location's ancestors, itself included (migration 061): the locations above one, read by
 * key in a trigger (SQLite allows no recursive query there).
 */
export interface LocationPathsTable {
  location_id: string;
  ancestor_id: string;
}

/**
 * Per location and product, what the product holds there and under it (migration 061): its units
 * and in how many stock rows; no row when none.
 */
export interface LocationHoldingsTable {
  product_id: string;
  location_id: string;
  units: number;
  stock_rows: number;
}

/**
 * What a location and those under it hold, per part of the catalogue (migration 061), kept by
 * triggers: as CatalogueTotalsTable, with each product's units those it holds there.
 */
export interface LocationTotalsTable extends CatalogueTotalsTable {
  location_id: string;
  /** The places (stock rows) of its products there and under it (migration 066). */
  places: number;
}

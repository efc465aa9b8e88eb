import type { Generated } from 'kysely';

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

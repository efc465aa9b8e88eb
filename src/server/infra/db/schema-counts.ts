import type { Generated } from 'kysely';
import type { CountStatus } from '../../../shared/schemas/counts/counts.js';

// The stock counts' tables (migration 040). schema.ts says how times, booleans and money are stored.

/** A count: what it covers, whether it is blind, where it stands. */
export interface CountsTable {
  id: string;
  catalogue_id: string;
  name: string;
  scope_kind: 'location' | 'tag' | 'catalogue';
  scope_location_id: string | null;
  /** The tag as written; its folded form is in `scope_key`. */
  scope_tag: string | null;
  /** `location:<id>`, `tag:<folded tag>` or `catalogue`: one active count each. */
  scope_key: string;
  blind: number;
  status: CountStatus;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  posted_at: number | null;
  /** How many lines it holds (kept by the line writes). */
  lines: Generated<number>;
}

/** What was counted of one product at one location. */
export interface CountLinesTable {
  count_id: string;
  product_id: string;
  location_id: string;
  catalogue_id: string;
  /** The quantity at the location when the line was first counted. */
  expected: number;
  counted: number;
  counted_by: string | null;
  counted_at: number;
}

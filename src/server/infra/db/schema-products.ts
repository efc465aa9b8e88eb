import type { Generated } from 'kysely';
import type { MovementSource, StockReason } from '../../../shared/constants.js';

// The products' tables: products, their folded tags and their stock movements. schema.ts says
// how times, booleans and money are stored.

export interface ProductsTable {
  id: string;
  /** The catalogue the product is in (migration 016; a personal catalogue's id is its user's). */
  catalogue_id: string;
  name: string;
  /** The name folded for sorting (lower case, no accents). */
  name_key: string;
  description: string;
  /** Name and description folded for search, see migration 002. */
  search_key: string;
  price_cents: number;
  stock: number;
  active: number;
  image_key: string | null;
  /** The stored image's size in pixels (migration 009); null without one or from before. */
  image_width: number | null;
  image_height: number | null;
  /** The tags as written, a JSON array (migration 012); product_tags holds them folded. */
  tags: string;
  /** What a unit cost, in cents; null when unset. */
  cost_cents: number | null;
  created_at: number;
  updated_at: number;
  /** Optional codes (migration 014): as shown, and the key that is unique per owner. */
  sku: string | null;
  sku_key: string | null;
  barcode: string | null;
  barcode_key: string | null;
  /** Who created and who last edited the product (migration 016); null from before, or gone. */
  created_by: Generated<string | null>;
  updated_by: Generated<string | null>;
  /** Its own reorder point (migration 018); null: the catalogue's. */
  reorder_point: Generated<number | null>;
  /**
   * When it last crossed to or below its reorder point; null while above it (migration 020). Set
   * and cleared by every write of a stock or a point (features/products/reorder.ts).
   */
  reorder_crossed_at: Generated<number | null>;
  /**
   * The import that wrote it (migration 037); null for every other write. While that import is
   * pending the product is invisible to every read (visible-products.ts).
   */
  import_id: Generated<string | null>;
  /** How many to order when the reorder point is reached (migration 038); null: enough to pass it. */
  reorder_quantity: Generated<number | null>;
  /**
   * When it last moved: its latest movement's time after its creation, null without one
   * (migration 042), kept by a trigger on the movements. What the dead stock reads, by the index
   * `products_idle` (the later of this and its creation).
   */
  last_moved_at: Generated<number | null>;
}

/** An import being written in short transactions: its products stay invisible until it publishes. */
export interface PendingImportsTable {
  id: string;
  catalogue_id: string;
  /** Renewed by its writer; once past, the import's process died and its rows are swept. */
  lease_until: number;
  created_at: number;
}

/** What a re-import writes over one product, staged until it is applied (migration 049). */
export interface ImportUpdatesTable {
  import_id: string;
  product_id: string;
  catalogue_id: string;
  /** The row's fields as JSON: a field the file lacks is absent, and keeps the product's value. */
  fields: string;
}

/** A committed import whose staged updates are still being applied (migration 049). */
export interface ImportAppliesTable {
  id: string;
  catalogue_id: string;
  actor_id: string | null;
  committed_at: number;
  /** Renewed by its applier; once past, its process died and the sweep applies the rest. */
  lease_until: number;
}

/** One folded tag of a product: what the tag filter reads (migration 012). */
export interface ProductTagsTable {
  product_id: string;
  catalogue_id: string;
  tag_key: string;
}

/**
 * One change of a product's stock (migration 010), written in the transaction of the change:
 * creation, an edit that changed the stock, an adjustment, an import. Goes with its product.
 */
export interface StockMovementsTable {
  /** Increasing: a product's movements in the order they happened. */
  id: Generated<number>;
  product_id: string;
  catalogue_id: string;
  /** Who made the change (migration 016); null from before, or when the account is gone. */
  actor_id: Generated<string | null>;
  created_at: number;
  old_stock: number;
  new_stock: number;
  delta: number;
  source: MovementSource;
  note: string | null;
  /** Why, as given with an adjustment or a count (migration 012); null when none was. */
  reason: StockReason | null;
  /** The location it changed (migration 032); null on those recorded before. */
  location_id: Generated<string | null>;
  /** The purchase order whose receipt this was (migration 038). */
  purchase_order_id: Generated<string | null>;
  /** The count whose posting (or its undo) made it (migration 040); null for any other. */
  count_id: Generated<string | null>;
}

/**
 * A product's movements of one UTC day (whole days since the epoch), added up by triggers as they
 * are recorded (migration 033): what the top movers read instead of the movements.
 */
export interface ProductDaysTable {
  product_id: string;
  catalogue_id: string;
  day: number;
  /** Σ delta. */
  units: number;
  units_in: number;
  units_out: number;
  moves: number;
}

/**
 * A catalogue's movements of one UTC day, kept like `product_days` (migration 033): Σ delta, and
 * Σ price × delta at the products' prices of now in three parts (low + middle·2^16 + high·2^32).
 */
export interface CatalogueDaysTable {
  catalogue_id: string;
  day: number;
  units: number;
  value_low: number;
  value_middle: number;
  value_high: number;
}

/**
 * A product's movements of a report's window (30, 90 or 365 days) from its catalogue's start of
 * that window on (`window_starts`), kept from `product_days` by triggers (migration 041): what the
 * top movers read, in their order, from the index `product_windows_top` of the marked ones.
 */
export interface ProductWindowsTable {
  product_id: string;
  days: number;
  catalogue_id: string;
  /** The product's name key, kept on rename: the ranking's tie-break. */
  name_key: string;
  units_in: number;
  units_out: number;
  moves: number;
  /** units_in + units_out: the ranking. */
  moved: number;
  /**
   * 1 when in the index `product_windows_top`: every window that moved at least its start's
   * `top_floor` is (migration 048).
   */
  top: number;
}

/**
 * The first day a catalogue's windows hold (migration 041): made at 0 with the catalogue, moved
 * forward by the top movers report to its period's first day.
 */
export interface WindowStartsTable {
  catalogue_id: string;
  days: number;
  start_day: number;
  /** The least `moved` of the windows marked `top` must be (migration 048). */
  top_floor: number;
}

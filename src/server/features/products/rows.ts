import type { ProductSort, StockFilter, StockReason } from '../../../shared/constants.js';
import type { ProductsTable } from '../../infra/db/schema-products.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { ProductCodes } from './codes.js';
import type { Position } from './cursor.js';

/**
 * A product as the API needs it: every column but the search text, the codes' keys, who made it
 * and its reorder point (read by the queries that need it).
 */
export type ProductRow = Omit<ProductInsert, 'search_key' | 'sku_key' | 'barcode_key'>;
/** A product's row as written: who created and edited it are set by the writes that know. */
export type ProductInsert = Omit<
  ProductsTable,
  | 'created_by'
  | 'updated_by'
  | 'reorder_point'
  | 'reorder_crossed_at'
  | 'import_id'
  | 'reorder_quantity'
  | 'last_moved_at'
> & { reorder_point: number | null; reorder_quantity: number | null };

/** What a list item shows: fewer columns read is measurably less work per row. */
export const LIST_COLUMNS = [
  'id',
  'name',
  'description',
  'price_cents',
  'stock',
  'image_key',
  'sku',
  'barcode',
  'tags',
  'reorder_point',
] as const;
export type ListRow = Pick<ProductRow, (typeof LIST_COLUMNS)[number]> & {
  /** The value of the page's sort column: where the next page starts. */
  sort_key: string | number;
};
/**
 * What a row of the CSV export shows: a list row (its reorder point too), its times, its cost, its
 * reorder quantity.
 */
export const EXPORT_COLUMNS = [
  'created_at',
  'updated_at',
  'cost_cents',
  'reorder_quantity',
] as const;
export type ExportRow = ListRow & Pick<ProductRow, (typeof EXPORT_COLUMNS)[number]>;

/** Every column of a product as the API reads it. */
export const COLUMNS = [
  'id',
  'catalogue_id',
  'name',
  'name_key',
  'description',
  'price_cents',
  'stock',
  'active',
  'image_key',
  'image_width',
  'image_height',
  'tags',
  'cost_cents',
  'created_at',
  'updated_at',
  'sku',
  'barcode',
  'reorder_point',
  'reorder_quantity',
] as const;

/** An image as stored: the key of its files and the size of the main one in pixels. */
export interface StoredImage {
  key: string;
  width: number;
  height: number;
}

export interface NewProduct extends ProductCodes {
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  image: StoredImage | null;
  /** Trimmed and de-duplicated already (normalizeTags); none when absent. */
  tags?: string[] | undefined;
  /** None when absent. */
  costCents?: number | null | undefined;
  /** Its own reorder point; none (the catalogue's) when absent or null. */
  reorderPoint?: number | null | undefined;
  /** How many to order at the reorder point; none when absent or null. */
  reorderQuantity?: number | null | undefined;
}

export interface ProductChanges {
  name?: string | undefined;
  description?: string | undefined;
  priceCents?: number | undefined;
  stock?: number | undefined;
  /** A new image; leaving it out keeps the current one. */
  image?: StoredImage | undefined;
  /** A code to set, null to clear it; leaving it out keeps the current one. */
  sku?: string | null | undefined;
  barcode?: string | null | undefined;
  tags?: string[] | undefined;
  /** Null clears the cost; undefined keeps it. */
  costCents?: number | null | undefined;
  /** Null: the catalogue's point; undefined keeps it. */
  reorderPoint?: number | null | undefined;
  /** Null: none; undefined keeps it. */
  reorderQuantity?: number | null | undefined;
}

export interface ListOptions {
  sort: ProductSort;
  limit: number;
  q?: string | undefined;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
  /** Only the products with stock in these locations (a location and those under it). */
  locationIds?: string[] | undefined;
  after?: Position | undefined;
}

/** The products a list, an export or a summary is about: the catalogue's, searched and filtered. */
export interface Selection {
  q?: string | undefined;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
  /** Only the products held in these locations (one and those under it). */
  locationIds?: string[] | undefined;
}

/** The totals of a selection: price × stock in integer cents, exact however large. */
export interface Summary {
  count: number;
  units: number;
  valueCents: bigint;
  /** Cost × stock of the products that have a cost; undefined when none has. */
  valueAtCostCents?: bigint | undefined;
  /** How many of them are to reorder (at or below their reorder point). */
  toReorder: number;
}

/** An import's row written over an existing product (its image stays). */
export interface ImportedUpdate {
  id: string;
  product: Omit<NewProduct, 'image'>;
  at: number;
}

/** What goes with any change of stock besides the number. */
export interface StockChange {
  reason: StockReason | null;
  note: string | null;
}

/** A stock movement as an activity entry names it. */
interface RecordedMovement {
  id: number;
  oldStock: number;
  newStock: number;
  delta: number;
  reason: StockReason | null;
}

/** What an adjustment did: the new row, or why nothing changed. */
export type Adjustment =
  | { outcome: 'done'; row: ProductRow; movement: RecordedMovement }
  | { outcome: 'missing' | 'no-location' }
  | { outcome: 'below-zero' | 'above-max'; stock: number };

/** What a product's id must look like: anything else names no product, without a query. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Rows per INSERT of a bulk load: well under either engine's limit on bound parameters, and a few
 * milliseconds of SQLite's time (indexes and the trigram index included) between turns of the
 * event loop.
 */
export const BATCH_ROWS = 100;

/**
 * Characters of search keys per statement of a bulk load: the trigram index costs about a
 * microsecond per character, so a batch of the longest descriptions (5,000 characters each) holds
 * a few rows, not a hundred, and a statement stays within a few milliseconds.
 */
const BATCH_SEARCH_CHARS = 10_000;

/**
 * Groups items as a bulk load writes them: BATCH_ROWS at a time, fewer when their search text
 * (`chars` of each) would pass BATCH_SEARCH_CHARS.
 */
export function* batchesOf<T>(items: Iterable<T>, chars: (item: T) => number): Generator<T[]> {
  let batch: T[] = [];
  let total = 0;
  for (const item of items) {
    const size = chars(item);
    if (batch.length === BATCH_ROWS || (batch.length > 0 && total + size > BATCH_SEARCH_CHARS)) {
      yield batch;
      batch = [];
      total = 0;
    }
    batch.push(item);
    total += size;
  }
  if (batch.length > 0) yield batch;
}

/**
 * batchesOf for a bulk write's statements on `dialect`: SQLite writes its trigram index in the
 * statement, on the event loop, so its search text bounds a batch; PostgreSQL's server writes its
 * index off the loop, where a statement per row or two only added statements (each with the tags,
 * movements and marks that follow it): 3,000 products of the longest descriptions took 3,000.
 */
export const statementBatchesOf = <T>(
  dialect: MigrationDialect,
  items: Iterable<T>,
  chars: (item: T) => number,
) => batchesOf(items, dialect === 'sqlite' ? chars : () => 0);

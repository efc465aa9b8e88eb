import { sql, type SqlBool } from 'kysely';
import { UNDO_WINDOW_MS } from '../../../shared/activity.js';
import type { ProductSort, StockReason } from '../../../shared/constants.js';
import { lookupKeys } from '../../../shared/codes.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { visibleProduct } from '../../infra/db/visible-products.js';
import { nextTurn } from '../../lib/turns.js';
import { locationCodeClashes, type CodeKeys } from './codes.js';
import { heldSum, ID_RANGES } from './held-summary.js';
import { searchText } from './keys.js';
import type { MatchColumn } from './match-columns.js';
import { movementsQuery, type MovementRow } from './movements.js';
import { keysetPages } from './page-loop.js';
import { ProductQueries, toSummary, type HeldIn, type PageOptions } from './queries.js';
import {
  BATCH_ROWS,
  COLUMNS,
  UUID,
  type ExportRow,
  type ListOptions,
  type ListRow,
  type ProductRow,
  type Selection,
  type Summary,
} from './rows.js';
import { SEARCH_LIMITS, type SearchLimits } from './search/sqlite-search.js';
import { searchStrategy, type SearchStrategy } from './search/strategy.js';

/**
 * Locations holding at most this many stock rows list what they hold by gathering it through the
 * locations' index and sorting it; those holding more are listed by reading the sort's index and
 * asking each product's few stock rows until the page is full: a gather reads at most this many
 * rows, a walk about a page divided by the share of the catalogue's products held there, which
 * this many rows keep above 1 in 150 at 100,000 products with stock in 3 places each. Measured
 * at that size (SQLite): a bin 0.4 ms, a warehouse 2 to 3 ms, gathering 3,000 rows 10 to 15 ms.
 */
const HELD_GATHER_MAX = 2000;

/** Rows per page of the CSV export: a few hundred kilobytes at most in memory at a time. */
const EXPORT_PAGE_ROWS = 500;

/**
 * Every product read, each one scoped by catalogue. Ids that are not UUIDs match nothing without a
 * query, so a malformed id is a plain "not found" on both engines. A search runs by its engine's
 * strategy (search/). Writes are functions of a write's transaction (writes.ts, stock-writes.ts,
 * import-writes.ts, delete-writes.ts, restore.ts), run by the write pipeline (features/writes).
 */
export class ProductRepository {
  private readonly queries: ProductQueries;
  private readonly search: SearchStrategy;

  constructor(
    private readonly db: DB,
    dialect: MigrationDialect,
    limits: SearchLimits = SEARCH_LIMITS,
    private readonly heldGatherMax = HELD_GATHER_MAX,
  ) {
    this.queries = new ProductQueries(db, dialect);
    this.search = searchStrategy(dialect, this.queries, limits);
  }

  /**
   * Stock rows of the catalogue, for statements that name their products: found by the products'
   * ids (the primary key). SQLite, without statistics, would rather read the catalogue's covering
   * index of stock rows (migration 054), every stock row of the catalogue, for one product;
   * `+catalogue_id` keeps the condition but not that index. PostgreSQL weighs both by statistics.
   */
  private stockOfCatalogue(catalogueId: string) {
    return this.queries.dialect === 'sqlite'
      ? sql<SqlBool>`+catalogue_id = ${catalogueId}`
      : sql<SqlBool>`catalogue_id = ${catalogueId}`;
  }

  /** Where a product's stock is: its quantity in each location holding some. */
  levels(catalogueId: string, productId: string) {
    return this.db
      .selectFrom('stock_levels')
      .select(['location_id', 'quantity'])
      .where(this.stockOfCatalogue(catalogueId))
      .where('product_id', '=', productId)
      .where('quantity', '>', 0)
      .execute();
  }

  /** The quantities of these products (of the catalogue) in each location holding some. */
  levelsOf(catalogueId: string, productIds: string[]) {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where(this.stockOfCatalogue(catalogueId))
      .where('product_id', 'in', productIds)
      .where('quantity', '>', 0)
      .execute();
  }

  /**
   * The owner's products whose `column` holds one of these values (an import's matching), read
   * BATCH_ROWS values at a time. Ids that are not UUIDs name no product and are not looked up.
   */
  async findBy(catalogueId: string, column: MatchColumn, values: string[]): Promise<ProductRow[]> {
    const wanted = column === 'id' ? values.filter((value) => UUID.test(value)) : values;
    const found: ProductRow[] = [];
    for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
      const rows = await this.db
        .selectFrom('products')
        .select(COLUMNS)
        .where('catalogue_id', '=', catalogueId)
        .where(column, 'in', wanted.slice(i, i + BATCH_ROWS))
        .where(visibleProduct())
        .execute();
      found.push(...rows);
      // SQLite's reads run on the event loop: the reads of a 20,000-row re-import held it 150 ms.
      if (i + BATCH_ROWS < wanted.length) await nextTurn();
    }
    return found;
  }

  /**
   * The owner's product whose barcode (a GTIN in any of its lengths) or SKU (in any case) is this
   * code; a barcode wins over another product's SKU. Each is one probe of a unique index.
   */
  async findByCode(catalogueId: string, code: string): Promise<ProductRow | undefined> {
    const { barcodeKey, skuKey } = lookupKeys(code);
    return (
      (await this.queries.codeQuery(catalogueId, 'barcode_key', barcodeKey).executeTakeFirst()) ??
      (await this.queries.codeQuery(catalogueId, 'sku_key', skuKey).executeTakeFirst())
    );
  }

  /**
   * Which of the catalogue's products holds each of these SKU and barcode keys (a few hundred a
   * query), a pending import's too: a code is the catalogue's once, visible or not.
   */
  async codeHolders(catalogueId: string, keys: { sku: string[]; barcode: string[] }) {
    const holders = { sku: new Map<string, string>(), barcode: new Map<string, string>() };
    for (const [field, column] of [
      ['sku', 'sku_key'],
      ['barcode', 'barcode_key'],
    ] as const) {
      const wanted = [...new Set(keys[field])];
      for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
        const rows = await this.db
          .selectFrom('products')
          .select(['id', column])
          .where('catalogue_id', '=', catalogueId)
          .where(column, 'in', wanted.slice(i, i + BATCH_ROWS))
          .execute();
        for (const row of rows) holders[field].set(row[column]!, row.id);
        if (i + BATCH_ROWS < wanted.length) await nextTurn();
      }
    }
    return holders;
  }

  /** Which of these products' codes a location of the catalogue has as its code (codes.ts). */
  locationCodes(catalogueId: string, products: CodeKeys[]) {
    return locationCodeClashes(this.db, catalogueId, products);
  }

  /** The owner's products with these ids, in no particular order (unknown ids are left out). */
  async findMany(catalogueId: string, ids: readonly string[]): Promise<ProductRow[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return [];
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('catalogue_id', '=', catalogueId)
      .where('id', 'in', valid)
      .where(visibleProduct())
      .execute();
  }

  async find(catalogueId: string, id: string): Promise<ProductRow | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('catalogue_id', '=', catalogueId)
      .where('id', '=', id)
      .where(visibleProduct())
      .executeTakeFirst();
  }

  /**
   * Which of these image keys a product still refers to. The one query not scoped by catalogue: it
   * answers no user, only the sweep of image files that nothing refers to.
   */
  async referencedImageKeys(keys: string[], now: number): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('products')
      .select('image_key')
      .where('image_key', 'in', keys)
      .execute();
    // A deleted product's picture stays while the delete can be undone.
    const kept = await this.db
      .selectFrom('activity_entries')
      .select('image_key')
      .where('image_key', 'in', keys)
      .where('created_at', '>', now - UNDO_WINDOW_MS)
      .execute();
    return new Set([...rows, ...kept].map((row) => row.image_key!));
  }

  /** One page in the requested order, plus whether another page follows. */
  async list(catalogueId: string, options: ListOptions & { times?: boolean }) {
    const { sort, limit, q, stock, tag, locationIds, after, times } = options;
    const text = q ? searchText(q) : '';
    const held = locationIds && (await this.heldIn(catalogueId, locationIds));
    const rows = await this.pageRows(catalogueId, sort, {
      text,
      stock,
      tag,
      held,
      after,
      rows: limit + 1,
      times,
    });
    const hasMore = rows.length > limit;
    return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  /**
   * Every selected product in the sort's order, `pageRows` at a time, read a page at a time as the
   * caller asks for the next one (the page loop): however large the catalogue, one page is in
   * memory, and none is read before the caller wants it.
   */
  exportPages(
    catalogueId: string,
    options: Selection & { sort: ProductSort },
    pageRows = EXPORT_PAGE_ROWS,
  ): AsyncGenerator<ExportRow[]> {
    return keysetPages(async (after) => {
      const page = await this.list(catalogueId, {
        ...options,
        limit: pageRows,
        after,
        times: true,
      });
      const rows = page.rows as ExportRow[];
      const last = rows.at(-1);
      const next = page.hasMore && last ? { key: last.sort_key, id: last.id } : undefined;
      return { rows, next };
    });
  }

  /** How a list of what these locations hold reads it (HELD_GATHER_MAX). */
  private async heldIn(catalogueId: string, locationIds: string[]): Promise<HeldIn> {
    const rows = await this.queries.heldRows(catalogueId, locationIds, this.heldGatherMax + 1);
    return { locationIds, gather: rows <= this.heldGatherMax };
  }

  /**
   * A page of rows: one statement, or a search by the engine's strategy (a search among the few
   * products some locations hold checks them all in one statement of bounded cost).
   */
  private pageRows(
    catalogueId: string,
    sort: ProductSort,
    options: Omit<PageOptions, 'until' | 'rowids'>,
  ): Promise<ListRow[]> {
    if (options.text && !options.held?.gather) return this.search.page(catalogueId, sort, options);
    return this.queries.pageQuery(catalogueId, sort, options).execute();
  }

  /**
   * How many products a selection holds, their units, and their value (price × stock) in cents,
   * exactly however large: the whole catalogue or one of its stock filters from the totals the
   * database keeps (one row); a tag or a search summed by the database (exact-sum.ts) in one
   * statement, or in those of the engine's strategy; what some locations hold summed over their
   * stock rows (held-summary.ts): in one statement when they hold few, else one range of product
   * ids a statement (4 × HELD_GATHER_MAX rows).
   */
  async summary(catalogueId: string, { q, stock, tag, locationIds }: Selection): Promise<Summary> {
    const text = q ? searchText(q) : '';
    if (locationIds) {
      const held = { text, stock, tag, locationIds };
      // Up to four times a gather's rows in one statement (about 35 ms at most on SQLite); more,
      // one range of ids a statement: more CPU in all (each range seeks every location), but
      // no statement holds the event loop for a whole warehouse.
      const most = this.heldGatherMax * 4;
      if ((await this.queries.heldRows(catalogueId, locationIds, most + 1)) <= most) {
        return toSummary([await heldSum(this.queries, catalogueId, held)]);
      }
      const parts = [];
      for (const ids of ID_RANGES)
        parts.push(await heldSum(this.queries, catalogueId, { ...held, ids }));
      return toSummary(parts);
    }
    if (!text && !tag) return toSummary([await this.queries.kept(catalogueId, stock ?? 'all')]);
    if (!text) return toSummary([await this.queries.sum(catalogueId, { stock, tag })]);
    return toSummary(await this.search.summary(catalogueId, { text, stock, tag }));
  }

  /**
   * What a location and those under it hold among a selection: without a search or a tag, the
   * totals the database keeps for the location (one row by key); with one, summed over the
   * locations `subtree` gives. Undefined for a location that is not the catalogue's.
   */
  async heldSummary(
    catalogueId: string,
    locationId: string,
    { q, stock, tag }: Omit<Selection, 'locationIds'>,
    subtree: () => Promise<string[] | undefined>,
  ): Promise<Summary | undefined> {
    const text = q ? searchText(q) : '';
    if (!text && !tag) {
      const kept = await this.queries.keptHeld(catalogueId, locationId, stock ?? 'all');
      return kept && toSummary([kept]);
    }
    const locationIds = await subtree();
    return locationIds && this.summary(catalogueId, { q, stock, tag, locationIds });
  }

  /**
   * A page of a product's stock movements, newest first, plus whether older ones follow; undefined
   * when the product is not the catalogue's.
   */
  async movements(
    catalogueId: string,
    id: string,
    options: { limit: number; before?: number | undefined; reason?: StockReason | undefined },
  ): Promise<{ rows: MovementRow[]; hasMore: boolean } | undefined> {
    if (!(await this.find(catalogueId, id))) return undefined;
    const rows = await movementsQuery(this.db, catalogueId, id, {
      before: options.before,
      reason: options.reason,
      rows: options.limit + 1,
    }).execute();
    const hasMore = rows.length > options.limit;
    return { rows: hasMore ? rows.slice(0, options.limit) : rows, hasMore };
  }
}

import { sql, type Selectable, type SqlBool } from 'kysely';
import type { ProductSort, StockFilter } from '../../../shared/constants.js';
import { tagKey } from '../../../shared/tags.js';
import type { DB } from '../../infra/db/handle.js';
import type { TotalsPart } from '../../infra/db/schema-catalogues.js';
import type { ProductsTable } from '../../infra/db/schema-products.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { visibleByKey, visibleProduct } from '../../infra/db/visible-products.js';
import { SORT_ORDERS, type Position, type SortOrder } from './cursor.js';
import { exactSum } from './exact-sum.js';
import { searchText } from './keys.js';
import { COLUMNS, EXPORT_COLUMNS, LIST_COLUMNS, type ListOptions, type Summary } from './rows.js';
import { toReorderIn } from './reorder.js';
import { keptHeld, keptTotals } from './totals.js';
import { stockCondition } from './stock-filter.js';

/** Which rows a page query reads, and how many. */
export interface PageOptions {
  /** The folded search text; empty for every row. */
  text: string;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
  held?: HeldIn | undefined;
  after?: Position | undefined;
  until?: Position | undefined;
  rowids?: number[] | undefined;
  rows: number;
  /** Also read created_at, updated_at and cost_cents (the export). */
  times?: boolean | undefined;
}

/**
 * The products held in some locations (one and those under it): `gather` reads them from the
 * locations' stock and sorts them, for locations holding few; otherwise the sort's index is read
 * in order and each row's stock asked whether it is there (heldIn).
 */
export interface HeldIn {
  locationIds: string[];
  gather: boolean;
}

/** Which rows a summary statement adds up. */
export type SumOptions = Partial<Omit<PageOptions, 'rows' | 'times' | 'held'>>;

/** What one summary statement counted: counts may come as text, money is read exactly. */
export interface SummaryPart {
  count: unknown;
  units: unknown;
  costed: unknown;
  toReorder: unknown;
  valueCents: bigint;
  valueAtCostCents: bigint;
}

/** Totals added up from the statements that counted them. */
export function toSummary(parts: SummaryPart[]): Summary {
  const total = (key: 'count' | 'units' | 'costed' | 'toReorder') =>
    parts.reduce((sum, part) => sum + Number(part[key]), 0);
  const money = (key: 'valueCents' | 'valueAtCostCents') =>
    parts.reduce((sum, part) => sum + part[key], 0n);
  return {
    count: total('count'),
    units: total('units'),
    valueCents: money('valueCents'),
    valueAtCostCents: total('costed') > 0 ? money('valueAtCostCents') : undefined,
    toReorder: total('toReorder'),
  };
}

/** The index of the products to reorder in each sort's column (migration 051). */
const REORDER_INDEXES: Record<SortOrder['column'], string> = {
  created_at: 'products_reorder_by_created',
  name_key: 'products_reorder_by_name',
  price_cents: 'products_reorder_by_price',
  stock: 'products_reorder_by_stock',
};

/**
 * The owner's rows among these rowids, read by rowid: `+catalogue_id` keeps SQLite from scanning the
 * owner's index instead (all of a catalogue, which it prefers without statistics). The rowids go
 * as one JSON parameter, so the statement's text, and its cached preparation, stay the same.
 */
const ownedAmong = (catalogueId: string, rowids: number[]) =>
  sql<SqlBool>`+catalogue_id = ${catalogueId} and rowid in (select value from json_each(${JSON.stringify(rowids)}))`;

/**
 * The statements behind every read of products, each scoped by catalogue, on either engine. How a
 * search runs them (one statement, or many of bounded cost) is its strategy's (search/).
 */
export class ProductQueries {
  constructor(
    readonly db: DB,
    readonly dialect: MigrationDialect,
  ) {}

  /** Σ price × stock (or cost × stock), exact: a summary's value (or value at cost). */
  stockValue(cents: 'price_cents' | 'cost_cents') {
    return exactSum(
      this.dialect,
      cents,
      'stock',
      cents === 'price_cents' ? 'value' : 'valueAtCost',
    );
  }

  codeQuery(catalogueId: string, column: 'barcode_key' | 'sku_key', key: string) {
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('catalogue_id', '=', catalogueId)
      .where(column, '=', key)
      .where(visibleProduct());
  }

  /**
   * The query behind a page: one more row than asked for tells whether another page follows. One
   * statement; on SQLite, a search is cut into bounded ones instead (search/sqlite-search.ts).
   */
  listQuery(catalogueId: string, { sort, limit, q, stock, tag, after }: ListOptions) {
    const text = q ? searchText(q) : '';
    return this.pageQuery(catalogueId, sort, { text, stock, tag, after, rows: limit + 1 });
  }

  /**
   * How many of the catalogue's stock rows these locations hold, counted up to `max` (an index,
   * no further): whether a list of what they hold may gather and sort it. PostgreSQL sizes the
   * locations' rows by every catalogue's; named, the catalogue's own index (migration 054) bounds
   * it, where a scan expecting the limit soon read every tenant's stock. SQLite, without
   * statistics, reads the index that ownStock() names.
   */
  heldRowsQuery(catalogueId: string, locationIds: string[], max: number) {
    const own =
      this.dialect === 'postgres' || this.ownStock(locationIds)
        ? sql`and catalogue_id = ${catalogueId}`
        : sql``;
    return sql<{ n: number | string }>`select count(*) as n from (
        select 1 from stock_levels where ${this.inLocations(locationIds)} ${own} limit ${max}
      ) as held`;
  }

  /**
   * Whether SQLite seeks these locations' stock rows in the catalogue's index (migration 054)
   * rather than the locations'. One location's rows are one range of either; many locations are
   * a seek each, which in the locations' index lands on a page of its own among other tenants'
   * rows, so that the pages a warehouse read grew with them (1,000 bins beside another tenant's
   * 100,000 products: a thousand pages more a statement, and twice the CPU). Led by the
   * catalogue, the seeks stay within its own few pages.
   */
  private ownStock(locationIds: string[]) {
    return locationIds.length > 1;
  }

  async heldRows(catalogueId: string, locationIds: string[], max: number): Promise<number> {
    const { rows } = await this.heldRowsQuery(catalogueId, locationIds, max).execute(this.db);
    return Number(rows[0]!.n);
  }

  /**
   * Whether a product has stock in one of the locations (a row at 0 is deleted, stock-levels.ts,
   * so every row holds some). `gather`: the products the locations' index finds (SQLite's for
   * many locations: the catalogue's, ownStock()), read by id (SQLite is told so by
   * `+catalogue_id`, else it walks the catalogue's index in the sort's order). Otherwise the
   * product's own few stock rows are asked, against the locations' ids hashed once: PostgreSQL
   * hashes a long `= any(array)`; SQLite indexes `held_locations`, the statement's materialized
   * table of them (from()).
   */
  heldIn(catalogueId: string, held: HeldIn) {
    if (held.gather) {
      const own =
        this.dialect === 'sqlite' && this.ownStock(held.locationIds)
          ? sql`and catalogue_id = ${catalogueId}`
          : sql``;
      return sql<SqlBool>`id in (select product_id from stock_levels
        where ${this.inLocations(held.locationIds)} ${own})`;
    }
    if (this.dialect === 'sqlite') {
      return sql<SqlBool>`exists (select 1 from stock_levels
        cross join held_locations on held_locations.id = stock_levels.location_id
        where stock_levels.product_id = products.id)`;
    }
    return sql<SqlBool>`exists (select 1 from stock_levels
      where stock_levels.product_id = products.id and ${this.inLocations(held.locationIds)})`;
  }

  /** `location_id` among these, the list one parameter: the statement's text stays the same. */
  inLocations(ids: string[]) {
    return this.dialect === 'sqlite'
      ? sql<SqlBool>`location_id in (select value from json_each(${JSON.stringify(ids)}))`
      : sql<SqlBool>`location_id = any(cast(${ids} as text[]))`;
  }

  /** The products, preceded on SQLite by the table of locations' ids that heldIn's walk asks. */
  private from(held: HeldIn | undefined) {
    if (held === undefined || held.gather || this.dialect !== 'sqlite') {
      return this.db.selectFrom('products');
    }
    const ids = JSON.stringify(held.locationIds);
    const withIds = this.db.with(
      (cte) => cte('held_locations').materialized(),
      () => sql<{ id: string }>`(select value as id from json_each(${ids}))`,
    );
    // The table is the statement's, not the products': the builder's type need not know it.
    return withIds.selectFrom('products') as unknown as ReturnType<
      typeof this.db.selectFrom<'products'>
    >;
  }

  /**
   * Up to `rows` rows of the owner in the sort's order, past `after` and up to `until` (included),
   * among `rowids` if given, that contain the folded `text` (every row when it is empty) and pass
   * the stock filter; with their times when `times` is set (the export).
   */
  pageQuery(catalogueId: string, sort: ProductSort, options: PageOptions) {
    const { text, stock, tag, held, after, until, rowids, rows, times } = options;
    const { column, direction } = SORT_ORDERS[sort];
    // The products to reorder have the table's columns and name: typed as the table itself.
    const source =
      stock === 'reorder' && !rowids && !held
        ? this.db.selectFrom(this.toReorder(catalogueId, sort) as unknown as 'products')
        : this.from(held);
    let query = source
      .select(LIST_COLUMNS)
      .select((eb) => eb.ref(column).as('sort_key'))
      .$if(times === true, (select) => select.select(EXPORT_COLUMNS));
    if (rowids) query = query.where(ownedAmong(catalogueId, rowids));
    else if (held?.gather && this.dialect === 'sqlite') {
      query = query.where(sql<SqlBool>`+catalogue_id = ${catalogueId}`);
    } else query = query.where('catalogue_id', '=', catalogueId);
    query = query.where(visibleProduct());
    if (text) query = query.where(this.contains(text));
    if (stock) query = query.where(stockCondition(catalogueId, stock, sort));
    if (tag) query = query.where(taggedWith(catalogueId, tag));
    if (held) query = query.where(this.heldIn(catalogueId, held));
    if (after) query = query.where(beyond(sort, after));
    if (until) query = query.where(upTo(sort, until));
    const inOrder = (stock === 'low' || stock === 'out') && !text && !tag && !held;
    return query
      .orderBy(column, direction)
      .orderBy('id', direction)
      .limit(inOrder ? this.unforeseen(rows) : rows);
  }

  /**
   * A page's size that PostgreSQL's planner cannot read (a subquery): it then plans for a tenth
   * of the rows that pass, where reading an index in the list's order costs a tenth of reading it
   * whole and fetching every match to sort them costs all of it, so the index's order wins by
   * about ten to one however many rows it expects. Given the number, it plans for the page, and a
   * filter it expects to keep fewer rows than that (no statistics of `stock + 0`) costs either plan
   * every match: it chose by a few percent, and sorted all of a catalogue's low products for a page.
   * SQLite reads the filter's index by the query's form (stock-filter.ts) and takes the number.
   */
  private unforeseen(rows: number) {
    return this.dialect === 'postgres' ? sql<number>`(select cast(${rows} as integer))` : rows;
  }

  /**
   * The catalogue's products whose reorder mark is set, as a table named `products`: read in the
   * sort's order from the index that holds them (migration 051), so a page reads that page however
   * many are due. The rule itself is still asked of each row (stockCondition), so a page shows no
   * product that is not to reorder.
   */
  private toReorder(catalogueId: string, sort: ProductSort) {
    // SQLite without statistics would rather walk the catalogue's index in the same order.
    const from =
      this.dialect === 'sqlite'
        ? sql`products indexed by ${sql.id(REORDER_INDEXES[SORT_ORDERS[sort].column])}`
        : sql`products`;
    return sql<Selectable<ProductsTable>>`(select * from ${from}
      where catalogue_id = ${catalogueId} and reorder_crossed_at is not null)`.as('products');
  }

  /**
   * Whether a row's search key contains the folded text. SQLite: instr(), a byte comparison, many
   * times cheaper than LIKE on long keys (its trigram index is asked first, see search/sqlite-search.ts).
   * PostgreSQL: a regular expression that is a literal (`***=`), which its pg_trgm index serves
   * from 3 characters on, and whose automaton checks a long key about ten times faster than LIKE.
   */
  contains(text: string) {
    if (this.dialect === 'sqlite') return sql<SqlBool>`instr(search_key, ${text}) > 0`;
    // PostgreSQL text cannot hold NUL, so no key contains one (and the driver refuses to send it).
    if (text.includes('\0')) return sql<SqlBool>`false`;
    return sql<SqlBool>`search_key ~ ${`***=${text}`}`;
  }

  /**
   * Products of any catalogue that hold every trigram of the folded text, by the FTS5 trigram index
   * (SQLite), at most `max` of them. A superset of those that contain the text.
   */
  candidatesQuery(trigrams: string, max: number) {
    return sql<{ rowid: number }>`select rowid from product_search
      where product_search match ${trigrams} limit ${max}`;
  }

  /** Which of these rows are the catalogue's, past `after`, pass the filter and contain the text (SQLite). */
  checkQuery(
    catalogueId: string,
    sort: ProductSort,
    text: string,
    after: Position | undefined,
    rowids: number[],
    stock?: StockFilter,
    tag?: string,
    held?: HeldIn,
  ) {
    return this.from(held)
      .select(sql<number>`rowid`.as('rowid'))
      .where(ownedAmong(catalogueId, rowids))
      .where(visibleProduct())
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .$if(stock !== undefined, (query) => query.where(stockCondition(catalogueId, stock!)))
      .$if(tag !== undefined, (query) => query.where(taggedWith(catalogueId, tag!)))
      .$if(held !== undefined, (query) => query.where(this.heldIn(catalogueId, held!)))
      .where(this.contains(text));
  }

  /**
   * The first `rows` of the catalogue's products among these rows, in the sort's order (SQLite): the
   * matches of a search, which passed its stock filter already, read by rowid alone.
   */
  amongQuery(
    catalogueId: string,
    sort: ProductSort,
    rowids: number[],
    rows: number,
    times?: boolean,
  ) {
    return this.pageQuery(catalogueId, sort, { text: '', rowids, rows, times });
  }

  /**
   * The end of the window of `windowRows` rows past `after` (the catalogue's rows that pass the stock
   * filter, in the sort's order), read from an index alone; undefined past the end. A pending
   * import's rows count in the window (they are in the index); the reads of its rows leave them out.
   */
  windowEnd(
    catalogueId: string,
    sort: ProductSort,
    after: Position | undefined,
    stock: StockFilter | undefined,
    tag: string | undefined,
    windowRows: number,
    held?: HeldIn,
  ): Promise<Position | undefined> {
    const { column, direction } = SORT_ORDERS[sort];
    return this.from(held)
      .select((eb) => [eb.ref(column).as('key'), 'id'])
      .where('catalogue_id', '=', catalogueId)
      .$if(stock !== undefined, (query) => query.where(stockCondition(catalogueId, stock!, sort)))
      .$if(tag !== undefined, (query) => query.where(taggedWith(catalogueId, tag!)))
      .$if(held !== undefined, (query) => query.where(this.heldIn(catalogueId, held!)))
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .orderBy(column, direction)
      .orderBy('id', direction)
      .offset(windowRows - 1)
      .limit(1)
      .executeTakeFirst();
  }

  /** The totals of the catalogue's rows that the options keep (windows in the newest-first order). */
  summaryQuery(catalogueId: string, options: SumOptions) {
    const { text, stock, tag, after, until, rowids } = options;
    let query = this.db
      .selectFrom('products')
      .select([
        sql<number>`count(*)`.as('count'),
        sql<number>`coalesce(sum(stock), 0)`.as('units'),
        ...this.stockValue('price_cents').selections,
        sql<number>`count(cost_cents)`.as('costed'),
        ...this.stockValue('cost_cents').selections,
        sql<number>`count(case when ${toReorderIn(catalogueId)} then 1 end)`.as('toReorder'),
      ]);
    query = rowids
      ? query.where(ownedAmong(catalogueId, rowids))
      : query.where('catalogue_id', '=', catalogueId);
    query = query.where(visibleByKey(this.dialect));
    if (text) query = query.where(this.contains(text));
    if (stock)
      query = query.where(
        stockCondition(catalogueId, stock, after || until ? 'newest' : undefined),
      );
    if (tag) query = query.where(taggedWith(catalogueId, tag));
    if (after) query = query.where(beyond('newest', after));
    if (until) query = query.where(upTo('newest', until));
    return query;
  }

  /** The totals the database keeps for a part of the catalogue: one row (totals.ts). */
  kept(catalogueId: string, part: TotalsPart): Promise<SummaryPart> {
    return keptTotals(this.db, catalogueId, part);
  }

  /** The totals the database keeps for a part of what a location holds (totals.ts). */
  keptHeld(catalogueId: string, locationId: string, part: TotalsPart) {
    return keptHeld(this.db, catalogueId, locationId, part);
  }

  /** What one summary statement counts, its money read exactly. */
  async sum(catalogueId: string, options: SumOptions): Promise<SummaryPart> {
    const row = await this.summaryQuery(catalogueId, options).executeTakeFirstOrThrow();
    return {
      count: row.count,
      units: row.units,
      costed: row.costed,
      toReorder: row.toReorder,
      valueCents: this.stockValue('price_cents').read(row),
      valueAtCostCents: this.stockValue('cost_cents').read(row),
    };
  }
}

/**
 * Rows past `position` in the sort's order, and rows up to it (included). Row-value comparisons:
 * both engines make them a range on the (catalogue, column, id) index.
 */
function beyond(sort: ProductSort, position: Position) {
  const { column, direction } = SORT_ORDERS[sort];
  const operator = sql.raw(direction === 'asc' ? '>' : '<');
  return sql<SqlBool>`(${sql.ref(column)}, id) ${operator} (${position.key}, ${position.id})`;
}

function upTo(sort: ProductSort, position: Position) {
  const { column, direction } = SORT_ORDERS[sort];
  const operator = sql.raw(direction === 'asc' ? '<=' : '>=');
  return sql<SqlBool>`(${sql.ref(column)}, id) ${operator} (${position.key}, ${position.id})`;
}

/** Products that carry the tag (case-insensitive), through the (catalogue, tag) index. */
export function taggedWith(catalogueId: string, tag: string) {
  return sql<SqlBool>`id in (select product_id from product_tags
    where catalogue_id = ${catalogueId} and tag_key = ${tagKey(tag)})`;
}

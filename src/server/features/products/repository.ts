import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { sql, type SqlBool } from 'kysely';
import pLimit from 'p-limit';
import {
  MAX_STOCK,
  type MovementSource,
  type ProductSort,
  type StockFilter,
  type StockReason,
} from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import type { ProductsTable } from '../../infra/db/schema.js';
import { lookupKeys } from '../../../shared/codes.js';
import { codeKeys, rethrowCodeTaken, type ProductCodes } from './codes.js';
import { SORT_ORDERS, type Position } from './cursor.js';
import { exactSum } from './exact-sum.js';
import { tagKey } from '../../../shared/tags.js';
import { nameKey, searchKey, searchText, trigramQuery } from './keys.js';
import type { MatchColumn } from './match-columns.js';
import { movementsQuery, recordMovements, type MovementRow } from './movements.js';
import { stockCondition } from './stock-filter.js';

/** A product as the API needs it: every column but the search text and the codes' keys. */
export type ProductRow = Omit<ProductsTable, 'search_key' | 'sku_key' | 'barcode_key'>;

/** What a list item shows: fewer columns read is measurably less work per row. */
const LIST_COLUMNS = [
  'id',
  'name',
  'description',
  'price_cents',
  'stock',
  'image_key',
  'sku',
  'barcode',
  'tags',
] as const;
export type ListRow = Pick<ProductRow, (typeof LIST_COLUMNS)[number]> & {
  /** The value of the page's sort column: where the next page starts. */
  sort_key: string | number;
};
/** What a row of the CSV export shows: a list row, its times and its cost. */
const EXPORT_COLUMNS = ['created_at', 'updated_at', 'cost_cents'] as const;
export type ExportRow = ListRow & Pick<ProductRow, (typeof EXPORT_COLUMNS)[number]>;

const COLUMNS = [
  'id',
  'owner_id',
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
}

export interface ListOptions {
  sort: ProductSort;
  limit: number;
  q?: string | undefined;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
  after?: Position | undefined;
}

/** The products a list, an export or a summary is about: the owner's, searched and filtered. */
export interface Selection {
  q?: string | undefined;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
}

/** The totals of a selection: price × stock in integer cents, exact however large. */
export interface Summary {
  count: number;
  units: number;
  valueCents: bigint;
  /** Cost × stock of the products that have a cost; undefined when none has. */
  valueAtCostCents?: bigint | undefined;
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

/** What an adjustment did: the new row, or why nothing changed. */
export type Adjustment =
  | { outcome: 'done'; row: ProductRow }
  | { outcome: 'missing' }
  | { outcome: 'below-zero' | 'above-max'; stock: number };

/** Rows per page of the CSV export: a few hundred kilobytes at most in memory at a time. */
const EXPORT_PAGE_ROWS = 500;

/** Which rows a page query reads, and how many. */
interface PageOptions {
  /** The folded search text; empty for every row. */
  text: string;
  stock?: StockFilter | undefined;
  tag?: string | undefined;
  after?: Position | undefined;
  until?: Position | undefined;
  rowids?: number[] | undefined;
  rows: number;
  /** Also read created_at, updated_at and cost_cents (the export). */
  times?: boolean | undefined;
}

/** Which rows a summary statement adds up. */
type SumOptions = Partial<Omit<PageOptions, 'rows' | 'times'>>;

/** What one summary statement counted: counts may come as text, money is read exactly. */
interface SummaryPart {
  count: unknown;
  units: unknown;
  costed: unknown;
  valueCents: bigint;
  valueAtCostCents: bigint;
}

/** Totals added up from the statements that counted them. */
function toSummary(parts: SummaryPart[]): Summary {
  const total = (key: 'count' | 'units' | 'costed') =>
    parts.reduce((sum, part) => sum + Number(part[key]), 0);
  const money = (key: 'valueCents' | 'valueAtCostCents') =>
    parts.reduce((sum, part) => sum + part[key], 0n);
  return {
    count: total('count'),
    units: total('units'),
    valueCents: money('valueCents'),
    valueAtCostCents: total('costed') > 0 ? money('valueAtCostCents') : undefined,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Rows per INSERT of a bulk load: well under either engine's limit on bound parameters, and a few
 * milliseconds of SQLite's time (indexes and the trigram index included) between turns of the
 * event loop.
 */
const BATCH_ROWS = 100;

/**
 * How a search on SQLite is cut into statements of bounded cost (ADR 007): a statement runs on the
 * event loop from start to end. Checking one row costs at most about 0.2 ms: a key of at most
 * 10,401 characters (3 bytes each at worst) against a query of at most 200 (see keys.ts).
 */
export interface SearchLimits {
  /** Rows one statement checks at most: about 20 ms at worst, however hostile the catalogue. */
  windowRows: number;
  /**
   * When the trigram index finds at most this many products (of any owner) holding every trigram
   * of a search, those candidates are checked and the page is read from the matches; beyond it,
   * the text is common enough that reading the owner's rows in order finds a page sooner.
   */
  candidatesMax: number;
}

const SEARCH_LIMITS: SearchLimits = { windowRows: 100, candidatesMax: 1000 };

/**
 * On PostgreSQL a search runs in the database server, off the event loop, but holds one of the
 * pool's 10 connections while it runs: at most this many searches run at once in a process, so
 * however many an attacker sends, the other connections stay free for everybody else.
 */
export const POSTGRES_SEARCH_SLOTS = 3;

/**
 * The statements of every search on SQLite in this process run one at a time, each after a turn
 * of the event loop: however many searches run at once, other requests wait for one statement at
 * most, not one per search.
 */
class SearchLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(statement: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(async () => {
      await setImmediate();
      return statement();
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
const searchLane = new SearchLane();

/**
 * The owner's rows among these rowids, read by rowid: `+owner_id` keeps SQLite from scanning the
 * owner's index instead (all of a catalogue, which it prefers without statistics). The rowids go
 * as one JSON parameter, so the statement's text, and its cached preparation, stay the same.
 */
const ownedAmong = (ownerId: string, rowids: number[]) =>
  sql<SqlBool>`+owner_id = ${ownerId} and rowid in (select value from json_each(${JSON.stringify(rowids)}))`;

/**
 * Every product query, each one scoped by owner. Ids that are not UUIDs match nothing without a
 * query, so a malformed id is a plain "not found" on both engines.
 */
export class ProductRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
    private readonly limits: SearchLimits = SEARCH_LIMITS,
  ) {}

  private readonly postgresSearches = pLimit(POSTGRES_SEARCH_SLOTS);

  /** Σ price × stock (or cost × stock), exact: a summary's value (or value at cost). */
  private stockValue(cents: 'price_cents' | 'cost_cents') {
    return exactSum(
      this.dialect,
      cents,
      'stock',
      cents === 'price_cents' ? 'value' : 'valueAtCost',
    );
  }

  private row(ownerId: string, product: NewProduct, now: number): ProductsTable {
    const keys = codeKeys(product);
    return {
      id: randomUUID(),
      owner_id: ownerId,
      ...textColumns(product.name, product.description, keys),
      price_cents: product.priceCents,
      stock: product.stock,
      active: 1,
      image_key: product.image?.key ?? null,
      image_width: product.image?.width ?? null,
      image_height: product.image?.height ?? null,
      tags: JSON.stringify(product.tags ?? []),
      cost_cents: product.costCents ?? null,
      created_at: now,
      updated_at: now,
      sku: product.sku ?? null,
      barcode: product.barcode ?? null,
      ...keys,
    };
  }

  async insert(ownerId: string, product: NewProduct, now: number): Promise<ProductRow> {
    const row = this.row(ownerId, product, now);
    await this.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('products').values(row).execute();
        await insertTags(trx, ownerId, [row]);
        const created = { productId: row.id, oldStock: 0, newStock: row.stock, at: now };
        await recordMovements(trx, ownerId, [{ ...created, source: 'create' }]);
        await bumpCatalogueVersion(trx, ownerId);
      })
      .catch(rethrowCodeTaken);
    const { search_key: _searchKey, sku_key: _skuKey, barcode_key: _barcodeKey, ...stored } = row;
    return stored;
  }

  /**
   * Bulk loading (imports, benchmarks): every product with its movement (an import's), in one
   * transaction, so nothing is written if any statement fails or the process dies before the
   * commit. Rows are prepared first, then written BATCH_ROWS at a time with a turn of the event
   * loop between batches: other requests are answered meanwhile (on SQLite, reads go to another
   * connection; other writes wait for the commit, without blocking the event loop).
   */
  async insertMany(
    ownerId: string,
    products: Iterable<NewProduct & { createdAt: number }>,
    source: MovementSource = 'import',
    updates: ImportedUpdate[] = [],
  ): Promise<{ created: number; updated: number }> {
    const batches: ProductsTable[][] = [[]];
    for (const product of products) {
      let batch = batches.at(-1)!;
      if (batch.length === BATCH_ROWS) {
        // Folding names and descriptions for search costs CPU too.
        await setImmediate();
        batches.push((batch = []));
      }
      batch.push(this.row(ownerId, product, product.createdAt));
    }
    let count = 0;
    let updated = 0;
    await this.db
      .transaction()
      .execute(async (trx) => {
        for (const [index, update] of updates.entries()) {
          if (await this.applyImported(trx, ownerId, update)) updated += 1;
          if (index % BATCH_ROWS === BATCH_ROWS - 1) await setImmediate();
        }
        for (const batch of batches) {
          if (batch.length === 0) continue;
          await trx.insertInto('products').values(batch).execute();
          await insertTags(trx, ownerId, batch);
          await setImmediate();
          const movements = batch.map((row) => ({
            productId: row.id,
            oldStock: 0,
            newStock: row.stock,
            source,
            at: row.created_at,
          }));
          await recordMovements(trx, ownerId, movements);
          count += batch.length;
          await setImmediate();
        }
        await bumpCatalogueVersion(trx, ownerId);
      })
      .catch(rethrowCodeTaken);
    return { created: count, updated };
  }

  /**
   * Writes an import's row over an existing product: its fields, not its image or history; a
   * change of stock is recorded as an `import` movement from the stock the product had then.
   * False when the product has gone meanwhile.
   */
  private async applyImported(trx: DB, ownerId: string, update: ImportedUpdate) {
    const { id, product, at } = update;
    const current = await trx
      .selectFrom('products')
      .select(['stock', 'tags', 'sku', 'barcode'])
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!current) return false;
    const tags = product.tags === undefined ? current.tags : JSON.stringify(product.tags);
    const codes = {
      sku: product.sku === undefined ? current.sku : product.sku,
      barcode: product.barcode === undefined ? current.barcode : product.barcode,
    };
    const keys = codeKeys(codes);
    await trx
      .updateTable('products')
      .set({
        ...textColumns(product.name, product.description, keys),
        ...codes,
        ...keys,
        price_cents: product.priceCents,
        stock: product.stock,
        tags,
        ...(product.costCents === undefined ? {} : { cost_cents: product.costCents }),
        updated_at: at,
      })
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .execute();
    if (tags !== current.tags) await replaceTags(trx, ownerId, { id, tags });
    if (product.stock !== current.stock) {
      const movement = { productId: id, oldStock: current.stock, newStock: product.stock, at };
      await recordMovements(trx, ownerId, [{ ...movement, source: 'import' }]);
    }
    return true;
  }

  /**
   * The owner's products whose `column` holds one of these values (an import's matching), read
   * BATCH_ROWS values at a time. Ids that are not UUIDs name no product and are not looked up.
   */
  async findBy(ownerId: string, column: MatchColumn, values: string[]): Promise<ProductRow[]> {
    const wanted = column === 'id' ? values.filter((value) => UUID.test(value)) : values;
    const found: ProductRow[] = [];
    for (let i = 0; i < wanted.length; i += BATCH_ROWS) {
      const rows = await this.db
        .selectFrom('products')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where(column, 'in', wanted.slice(i, i + BATCH_ROWS))
        .execute();
      found.push(...rows);
    }
    return found;
  }

  /**
   * The owner's product whose barcode (a GTIN in any of its lengths) or SKU (in any case) is this
   * code; a barcode wins over another product's SKU. Each is one probe of a unique index.
   */
  async findByCode(ownerId: string, code: string): Promise<ProductRow | undefined> {
    const { barcodeKey, skuKey } = lookupKeys(code);
    return (
      (await this.codeQuery(ownerId, 'barcode_key', barcodeKey).executeTakeFirst()) ??
      (await this.codeQuery(ownerId, 'sku_key', skuKey).executeTakeFirst())
    );
  }

  codeQuery(ownerId: string, column: 'barcode_key' | 'sku_key', key: string) {
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('owner_id', '=', ownerId)
      .where(column, '=', key);
  }

  /** Which of the owner's products holds each of these SKU and barcode keys (a few hundred a query). */
  async codeHolders(ownerId: string, keys: { sku: string[]; barcode: string[] }) {
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
          .where('owner_id', '=', ownerId)
          .where(column, 'in', wanted.slice(i, i + BATCH_ROWS))
          .execute();
        for (const row of rows) holders[field].set(row[column]!, row.id);
      }
    }
    return holders;
  }

  /** The owner's products with these ids, in no particular order (unknown ids are left out). */
  async findMany(ownerId: string, ids: readonly string[]): Promise<ProductRow[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return [];
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('owner_id', '=', ownerId)
      .where('id', 'in', valid)
      .execute();
  }

  async find(ownerId: string, id: string): Promise<ProductRow | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db
      .selectFrom('products')
      .select(COLUMNS)
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Which of these image keys a product still refers to. The one query not scoped by owner: it
   * answers no user, only the sweep of image files that nothing refers to.
   */
  async referencedImageKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('products')
      .select('image_key')
      .where('image_key', 'in', keys)
      .execute();
    return new Set(rows.map((row) => row.image_key!));
  }

  /**
   * The query behind a page: one more row than asked for tells whether another page follows. One
   * statement; on SQLite, list() cuts a search into bounded ones instead (see searchSqlite).
   */
  listQuery(ownerId: string, { sort, limit, q, stock, tag, after }: ListOptions) {
    const text = q ? searchText(q) : '';
    return this.pageQuery(ownerId, sort, { text, stock, tag, after, rows: limit + 1 });
  }

  /**
   * Up to `rows` rows of the owner in the sort's order, past `after` and up to `until` (included),
   * among `rowids` if given, that contain the folded `text` (every row when it is empty) and pass
   * the stock filter; with their times when `times` is set (the export).
   */
  private pageQuery(ownerId: string, sort: ProductSort, options: PageOptions) {
    const { text, stock, tag, after, until, rowids, rows, times } = options;
    const { column, direction } = SORT_ORDERS[sort];
    let query = this.db
      .selectFrom('products')
      .select(LIST_COLUMNS)
      .select((eb) => eb.ref(column).as('sort_key'))
      .$if(times === true, (select) => select.select(EXPORT_COLUMNS));
    query = rowids
      ? query.where(ownedAmong(ownerId, rowids))
      : query.where('owner_id', '=', ownerId);
    if (text) query = query.where(this.contains(text));
    if (stock) query = query.where(stockCondition(stock, sort));
    if (tag) query = query.where(taggedWith(ownerId, tag));
    if (after) query = query.where(beyond(sort, after));
    if (until) query = query.where(upTo(sort, until));
    return query.orderBy(column, direction).orderBy('id', direction).limit(rows);
  }

  /**
   * Whether a row's search key contains the folded text. SQLite: instr(), a byte comparison, many
   * times cheaper than LIKE on long keys (its trigram index is asked first, see searchSqlite).
   * PostgreSQL: a regular expression that is a literal (`***=`), which its pg_trgm index serves
   * from 3 characters on, and whose automaton checks a long key about ten times faster than LIKE.
   */
  private contains(text: string) {
    if (this.dialect === 'sqlite') return sql<SqlBool>`instr(search_key, ${text}) > 0`;
    // PostgreSQL text cannot hold NUL, so no key contains one (and the driver refuses to send it).
    if (text.includes('\0')) return sql<SqlBool>`false`;
    return sql<SqlBool>`search_key ~ ${`***=${text}`}`;
  }

  /**
   * Products of any owner that hold every trigram of the folded text, by the FTS5 trigram index
   * (SQLite), at most `max` of them. A superset of those that contain the text.
   */
  candidatesQuery(trigrams: string, max: number) {
    return sql<{ rowid: number }>`select rowid from product_search
      where product_search match ${trigrams} limit ${max}`;
  }

  /** One page in the requested order, plus whether another page follows. */
  async list(ownerId: string, options: ListOptions & { times?: boolean }) {
    const { sort, limit, q, stock, tag, after, times } = options;
    const text = q ? searchText(q) : '';
    const rows = await this.pageRows(ownerId, sort, {
      text,
      stock,
      tag,
      after,
      rows: limit + 1,
      times,
    });
    const hasMore = rows.length > limit;
    return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  /**
   * Every selected product in the sort's order, `pageRows` at a time, read a page at a time as the
   * caller asks for the next one (keyset pagination, like the list's cursors): however large the
   * catalogue, one page is in memory, and none is read before the caller wants it.
   */
  async *exportPages(
    ownerId: string,
    options: Selection & { sort: ProductSort },
    pageRows = EXPORT_PAGE_ROWS,
  ): AsyncGenerator<ExportRow[]> {
    let after: Position | undefined;
    for (;;) {
      const page = await this.list(ownerId, { ...options, limit: pageRows, after, times: true });
      const rows = page.rows as ExportRow[];
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (!page.hasMore || !last) return;
      after = { key: last.sort_key, id: last.id };
    }
  }

  private pageRows(
    ownerId: string,
    sort: ProductSort,
    options: Omit<PageOptions, 'until' | 'rowids'>,
  ): Promise<ListRow[]> {
    const page = () => this.pageQuery(ownerId, sort, options).execute();
    if (!options.text) return page();
    if (this.dialect === 'sqlite') return this.searchSqlite(ownerId, sort, options);
    return this.postgresSearches(page);
  }

  /**
   * A search on SQLite, in statements of bounded cost that take turns in the search lane, with the
   * same result as one statement. From 3 characters, the trigram index is asked first which
   * products may hold the text: when they are few, those are checked and the page is read from the
   * matches. Otherwise (too short, or too common to narrow) the owner's rows are read in the
   * sort's order, one window at a time, until the page is full.
   */
  private async searchSqlite(
    ownerId: string,
    sort: ProductSort,
    options: Omit<PageOptions, 'until' | 'rowids'>,
  ): Promise<ListRow[]> {
    const matches = await this.sqliteMatches(ownerId, sort, options);
    if (matches === undefined) return this.searchInWindows(ownerId, sort, options);
    if (matches.length === 0) return [];
    const page = this.amongQuery(ownerId, sort, matches, options.rows, options.times);
    return searchLane.run(() => page.execute());
  }

  /**
   * The owner's rows past `after` that contain the text and pass the filter, by rowid, when the
   * trigram index narrows the text to a few candidates (SQLite), checked a window at a time;
   * undefined when it does not (fewer than 3 characters, or too common).
   */
  private async sqliteMatches(
    ownerId: string,
    sort: ProductSort,
    options: {
      text: string;
      stock?: StockFilter | undefined;
      tag?: string | undefined;
      after?: Position | undefined;
    },
  ): Promise<number[] | undefined> {
    const trigrams = trigramQuery(options.text);
    if (trigrams === undefined) return undefined;
    const { candidatesMax, windowRows } = this.limits;
    const query = this.candidatesQuery(trigrams, candidatesMax + 1);
    const { rows } = await searchLane.run(() => query.execute(this.db));
    if (rows.length > candidatesMax) return undefined;
    const candidates = rows.map((row) => row.rowid);
    const matches: number[] = [];
    for (let i = 0; i < candidates.length; i += windowRows) {
      const window = candidates.slice(i, i + windowRows);
      const check = this.checkQuery(
        ownerId,
        sort,
        options.text,
        options.after,
        window,
        options.stock,
        options.tag,
      );
      const found = await searchLane.run(() => check.execute());
      matches.push(...found.map((row) => row.rowid));
    }
    return matches;
  }

  /** Which of these rows are the owner's, past `after`, pass the filter and contain the text (SQLite). */
  checkQuery(
    ownerId: string,
    sort: ProductSort,
    text: string,
    after: Position | undefined,
    rowids: number[],
    stock?: StockFilter,
    tag?: string,
  ) {
    return this.db
      .selectFrom('products')
      .select(sql<number>`rowid`.as('rowid'))
      .where(ownedAmong(ownerId, rowids))
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .$if(stock !== undefined, (query) => query.where(stockCondition(stock!)))
      .$if(tag !== undefined, (query) => query.where(taggedWith(ownerId, tag!)))
      .where(this.contains(text));
  }

  /**
   * The first `rows` of the owner's products among these rows, in the sort's order (SQLite): the
   * matches of a search, which passed its stock filter already, read by rowid alone.
   */
  amongQuery(ownerId: string, sort: ProductSort, rowids: number[], rows: number, times?: boolean) {
    return this.pageQuery(ownerId, sort, { text: '', rowids, rows, times });
  }

  /** The page from the owner's rows in the sort's order, windowRows at a time. */
  private async searchInWindows(
    ownerId: string,
    sort: ProductSort,
    options: Omit<PageOptions, 'until' | 'rowids'>,
  ): Promise<ListRow[]> {
    const found: ListRow[] = [];
    let from = options.after;
    for (;;) {
      const start = from;
      const rows = options.rows - found.length;
      const { page, until } = await searchLane.run(() =>
        this.searchWindow(ownerId, sort, { ...options, after: start, rows }),
      );
      found.push(...page);
      if (found.length === options.rows || until === undefined) return found;
      from = until;
    }
  }

  /**
   * The end of the window of windowRows rows past `after` (the owner's rows that pass the stock
   * filter, in the sort's order), read from an index alone; undefined past the end.
   */
  private windowEnd(
    ownerId: string,
    sort: ProductSort,
    after: Position | undefined,
    stock: StockFilter | undefined,
    tag?: string | undefined,
  ): Promise<Position | undefined> {
    const { column, direction } = SORT_ORDERS[sort];
    return this.db
      .selectFrom('products')
      .select((eb) => [eb.ref(column).as('key'), 'id'])
      .where('owner_id', '=', ownerId)
      .$if(stock !== undefined, (query) => query.where(stockCondition(stock!, sort)))
      .$if(tag !== undefined, (query) => query.where(taggedWith(ownerId, tag!)))
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .orderBy(column, direction)
      .orderBy('id', direction)
      .offset(this.limits.windowRows - 1)
      .limit(1)
      .executeTakeFirst();
  }

  /** Up to `rows` matches among the windowRows rows past `after`, and the window's end. */
  private async searchWindow(
    ownerId: string,
    sort: ProductSort,
    options: Omit<PageOptions, 'until' | 'rowids'>,
  ) {
    const until = await this.windowEnd(ownerId, sort, options.after, options.stock, options.tag);
    const page: ListRow[] = await this.pageQuery(ownerId, sort, { ...options, until }).execute();
    return { page, until };
  }

  /**
   * How many products a selection holds, their units, and their value (price × stock) in cents,
   * summed by the database in one statement, exactly however large (exact-sum.ts). A search on
   * SQLite is summed over bounded statements.
   */
  async summary(ownerId: string, { q, stock, tag }: Selection): Promise<Summary> {
    const text = q ? searchText(q) : '';
    const sum = async (options: SumOptions): Promise<SummaryPart> => {
      const row = await this.summaryQuery(ownerId, options).executeTakeFirstOrThrow();
      return {
        count: row.count,
        units: row.units,
        costed: row.costed,
        valueCents: this.stockValue('price_cents').read(row),
        valueAtCostCents: this.stockValue('cost_cents').read(row),
      };
    };
    if (!text) return toSummary([await sum({ stock, tag })]);
    if (this.dialect === 'postgres')
      return toSummary([await this.postgresSearches(() => sum({ text, stock, tag }))]);
    // SQLite: the same bounded statements as a search's (ADR 007), summed here.
    const matches = await this.sqliteMatches(ownerId, 'newest', { text, stock, tag });
    const parts = [];
    if (matches !== undefined) {
      const { windowRows } = this.limits;
      for (let i = 0; i < matches.length; i += windowRows) {
        const rowids = matches.slice(i, i + windowRows);
        parts.push(await searchLane.run(() => sum({ rowids })));
      }
      return toSummary(parts);
    }
    let after: Position | undefined;
    for (;;) {
      const start = after;
      const { part, until } = await searchLane.run(async () => {
        const end = await this.windowEnd(ownerId, 'newest', start, stock, tag);
        return { part: await sum({ text, stock, tag, after: start, until: end }), until: end };
      });
      parts.push(part);
      if (until === undefined) return toSummary(parts);
      after = until;
    }
  }

  /** The totals of the owner's rows that the options keep (windows in the newest-first order). */
  summaryQuery(ownerId: string, options: SumOptions) {
    const { text, stock, tag, after, until, rowids } = options;
    let query = this.db
      .selectFrom('products')
      .select([
        sql<number>`count(*)`.as('count'),
        sql<number>`coalesce(sum(stock), 0)`.as('units'),
        ...this.stockValue('price_cents').selections,
        sql<number>`count(cost_cents)`.as('costed'),
        ...this.stockValue('cost_cents').selections,
      ]);
    query = rowids
      ? query.where(ownedAmong(ownerId, rowids))
      : query.where('owner_id', '=', ownerId);
    if (text) query = query.where(this.contains(text));
    if (stock) query = query.where(stockCondition(stock, after || until ? 'newest' : undefined));
    if (tag) query = query.where(taggedWith(ownerId, tag));
    if (after) query = query.where(beyond('newest', after));
    if (until) query = query.where(upTo('newest', until));
    return query;
  }

  /**
   * Applies the changes and returns the new row with the image key it replaced (null when the
   * image stayed or there was none). The row is locked while read and written, so derived columns
   * stay in step with concurrent edits.
   */
  async update(ownerId: string, id: string, changes: ProductChanges, now: number) {
    if (!UUID.test(id)) return undefined;
    const updating = this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('products')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (!current) return undefined;
      const name = changes.name ?? current.name;
      const description = changes.description ?? current.description;
      const codes = {
        sku: changes.sku === undefined ? current.sku : changes.sku,
        barcode: changes.barcode === undefined ? current.barcode : changes.barcode,
      };
      const keys = codeKeys(codes);
      const values = {
        name,
        name_key: nameKey(name),
        description,
        price_cents: changes.priceCents ?? current.price_cents,
        stock: changes.stock ?? current.stock,
        image_key: changes.image ? changes.image.key : current.image_key,
        image_width: changes.image ? changes.image.width : current.image_width,
        image_height: changes.image ? changes.image.height : current.image_height,
        tags: changes.tags ? JSON.stringify(changes.tags) : current.tags,
        cost_cents: changes.costCents === undefined ? current.cost_cents : changes.costCents,
        updated_at: now,
        ...codes,
      };
      const search_key = searchKey(name, description, [keys.sku_key, keys.barcode_key]);
      await trx
        .updateTable('products')
        .set({ ...values, ...keys, search_key })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .execute();
      if (values.tags !== current.tags) await replaceTags(trx, ownerId, { id, tags: values.tags });
      if (values.stock !== current.stock) {
        const edit = { productId: id, oldStock: current.stock, newStock: values.stock, at: now };
        await recordMovements(trx, ownerId, [{ ...edit, source: 'edit' }]);
      }
      await bumpCatalogueVersion(trx, ownerId);
      const replacedImageKey = changes.image !== undefined ? current.image_key : null;
      const row: ProductRow = { ...current, ...values };
      return { row, replacedImageKey };
    });
    return updating.catch(rethrowCodeTaken);
  }

  /** Deletes the row; returns its image key (or null), or undefined when there was no such row. */
  async delete(ownerId: string, id: string): Promise<{ imageKey: string | null } | undefined> {
    const deleted = await this.deleteMany(ownerId, [id]);
    return deleted && { imageKey: deleted.imageKeys[0] ?? null };
  }

  /**
   * Deletes all of these products of the owner, or none when one of them is not the owner's (or
   * does not exist): returns the image keys of the rows deleted, or undefined. Their movements go
   * with them (ON DELETE CASCADE). On PostgreSQL the rows are locked in id order first, so two
   * bulk deletes that share products wait for each other instead of deadlocking.
   */
  async deleteMany(ownerId: string, ids: string[]): Promise<{ imageKeys: string[] } | undefined> {
    if (ids.length === 0 || !ids.every((id) => UUID.test(id))) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('products')
        .select('id')
        .where('owner_id', '=', ownerId)
        .where('id', 'in', ids)
        .orderBy('id')
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .execute();
      if (found.length !== new Set(ids).size) return undefined;
      const rows = await trx
        .deleteFrom('products')
        .where('owner_id', '=', ownerId)
        .where('id', 'in', ids)
        .returning('image_key')
        .execute();
      await bumpCatalogueVersion(trx, ownerId);
      return { imageKeys: rows.flatMap((row) => (row.image_key ? [row.image_key] : [])) };
    });
  }

  /**
   * Changes the stock by `delta` in one conditional UPDATE: the row changes only if the result
   * stays within 0 and MAX_STOCK, so concurrent adjustments each apply to the stock the one before
   * left (PostgreSQL re-checks the condition on the row a concurrent update committed; SQLite runs
   * one writer at a time), and none can take it below 0. The movement is recorded in the same
   * transaction. The bounds are computed here, so no sum can overflow a 32-bit column.
   */
  async adjustStock(
    ownerId: string,
    id: string,
    change: StockChange & { delta: number },
    now: number,
  ): Promise<Adjustment> {
    if (!UUID.test(id)) return { outcome: 'missing' };
    const { delta, note, reason } = change;
    const lowest = Math.max(0, -delta);
    const highest = Math.min(MAX_STOCK, MAX_STOCK - delta);
    return this.db.transaction().execute(async (trx): Promise<Adjustment> => {
      const row = await trx
        .updateTable('products')
        .set({ stock: (eb) => eb('stock', '+', delta), updated_at: now })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .where('stock', '>=', lowest)
        .where('stock', '<=', highest)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) {
        const current = await trx
          .selectFrom('products')
          .select('stock')
          .where('owner_id', '=', ownerId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!current) return { outcome: 'missing' };
        return { outcome: delta < 0 ? 'below-zero' : 'above-max', stock: current.stock };
      }
      const movement = { productId: id, oldStock: row.stock - delta, newStock: row.stock, at: now };
      await recordMovements(trx, ownerId, [{ ...movement, source: 'adjustment', reason, note }]);
      await bumpCatalogueVersion(trx, ownerId);
      return { outcome: 'done', row };
    });
  }

  /**
   * Sets the stock to a counted number, recorded as a `count` movement from the stock it replaced
   * (also when they are equal: the count itself is worth keeping). The row is locked from the read
   * to the write, so the movement's old stock is the one the count replaced.
   */
  async countStock(
    ownerId: string,
    id: string,
    change: StockChange & { count: number },
    now: number,
  ): Promise<Adjustment> {
    if (!UUID.test(id)) return { outcome: 'missing' };
    const { count, note, reason } = change;
    return this.db.transaction().execute(async (trx): Promise<Adjustment> => {
      const current = await trx
        .selectFrom('products')
        .select('stock')
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        // SQLite has no FOR UPDATE: its transactions already run one at a time.
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirst();
      if (!current) return { outcome: 'missing' };
      const row = await trx
        .updateTable('products')
        .set({ stock: count, updated_at: now })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      const movement = { productId: id, oldStock: current.stock, newStock: count, at: now };
      await recordMovements(trx, ownerId, [{ ...movement, source: 'count', reason, note }]);
      await bumpCatalogueVersion(trx, ownerId);
      return { outcome: 'done', row };
    });
  }

  /**
   * A page of a product's stock movements, newest first, plus whether older ones follow; undefined
   * when the product is not the owner's.
   */
  async movements(
    ownerId: string,
    id: string,
    options: { limit: number; before?: number | undefined; reason?: StockReason | undefined },
  ): Promise<{ rows: MovementRow[]; hasMore: boolean } | undefined> {
    if (!(await this.find(ownerId, id))) return undefined;
    const rows = await movementsQuery(this.db, ownerId, id, {
      before: options.before,
      reason: options.reason,
      rows: options.limit + 1,
    }).execute();
    const hasMore = rows.length > options.limit;
    return { rows: hasMore ? rows.slice(0, options.limit) : rows, hasMore };
  }
}

/**
 * Rows past `position` in the sort's order, and rows up to it (included). Row-value comparisons:
 * both engines make them a range on the (owner, column, id) index.
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

/**
 * Every write to a catalogue bumps its owner's version in the same transaction, so a page cached
 * under the old version can never be served after the write commits, on any server process.
 */
async function bumpCatalogueVersion(trx: DB, ownerId: string) {
  await trx
    .updateTable('users')
    .set({ catalogue_version: (eb) => eb('catalogue_version', '+', 1) })
    .where('id', '=', ownerId)
    .execute();
}

/** A product's name and description with the keys derived from them (a search finds codes too). */
const textColumns = (
  name: string,
  description: string,
  codes: { sku_key: string | null; barcode_key: string | null },
) => ({
  name,
  name_key: nameKey(name),
  description,
  search_key: searchKey(name, description, [codes.sku_key, codes.barcode_key]),
});

/** Products that carry the tag (case-insensitive), through the (owner, tag) index. */
function taggedWith(ownerId: string, tag: string) {
  return sql<SqlBool>`id in (select product_id from product_tags
    where owner_id = ${ownerId} and tag_key = ${tagKey(tag)})`;
}

/** The folded tags of new rows (their `tags` column holds them as written). */
async function insertTags(trx: DB, ownerId: string, rows: { id: string; tags: string }[]) {
  const tagRows = rows.flatMap((row) =>
    (JSON.parse(row.tags) as string[]).map((tag) => ({
      product_id: row.id,
      owner_id: ownerId,
      tag_key: tagKey(tag),
    })),
  );
  // 3 values a row: well under either engine's limit on bound parameters.
  for (let i = 0; i < tagRows.length; i += BATCH_ROWS) {
    await trx
      .insertInto('product_tags')
      .values(tagRows.slice(i, i + BATCH_ROWS))
      .execute();
  }
}

async function replaceTags(trx: DB, ownerId: string, row: { id: string; tags: string }) {
  await trx.deleteFrom('product_tags').where('product_id', '=', row.id).execute();
  await insertTags(trx, ownerId, [row]);
}

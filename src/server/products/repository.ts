import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { sql, type SqlBool } from 'kysely';
import pLimit from 'p-limit';
import type { ProductSort } from '../../shared/constants.js';
import type { DB } from '../db/handle.js';
import type { MigrationDialect } from '../db/migrate.js';
import type { ProductsTable } from '../db/schema.js';
import { SORT_ORDERS, type Position } from './cursor.js';
import { nameKey, searchKey, searchText, trigramQuery } from './keys.js';

/** A product as the API needs it: every column but the search text. */
export type ProductRow = Omit<ProductsTable, 'search_key'>;

/** What a list item shows: fewer columns read is measurably less work per row. */
const LIST_COLUMNS = ['id', 'name', 'description', 'price_cents', 'stock', 'image_key'] as const;
export type ListRow = Pick<ProductRow, (typeof LIST_COLUMNS)[number]> & {
  /** The value of the page's sort column: where the next page starts. */
  sort_key: string | number;
};

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
  'created_at',
  'updated_at',
] as const;

/** An image as stored: the key of its files and the size of the main one in pixels. */
export interface StoredImage {
  key: string;
  width: number;
  height: number;
}

export interface NewProduct {
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  image: StoredImage | null;
}

export interface ProductChanges {
  name?: string | undefined;
  description?: string | undefined;
  priceCents?: number | undefined;
  stock?: number | undefined;
  /** A new image; leaving it out keeps the current one. */
  image?: StoredImage | undefined;
}

export interface ListOptions {
  sort: ProductSort;
  limit: number;
  q?: string | undefined;
  after?: Position | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rows per INSERT when seeding: well under either engine's limit on bound parameters. */
const BATCH_ROWS = 500;

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

  private row(ownerId: string, product: NewProduct, now: number): ProductsTable {
    return {
      id: randomUUID(),
      owner_id: ownerId,
      name: product.name,
      name_key: nameKey(product.name),
      description: product.description,
      search_key: searchKey(product.name, product.description),
      price_cents: product.priceCents,
      stock: product.stock,
      active: 1,
      image_key: product.image?.key ?? null,
      image_width: product.image?.width ?? null,
      image_height: product.image?.height ?? null,
      created_at: now,
      updated_at: now,
    };
  }

  async insert(ownerId: string, product: NewProduct, now: number): Promise<ProductRow> {
    const row = this.row(ownerId, product, now);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('products').values(row).execute();
      await bumpCatalogueVersion(trx, ownerId);
    });
    const { search_key: _searchKey, ...stored } = row;
    return stored;
  }

  /** Bulk loading (benchmarks, imports): batched INSERTs in one transaction. */
  async insertMany(
    ownerId: string,
    products: Iterable<NewProduct & { createdAt: number }>,
  ): Promise<number> {
    let count = 0;
    await this.db.transaction().execute(async (trx) => {
      let batch: ProductsTable[] = [];
      const flush = async () => {
        if (batch.length > 0) await trx.insertInto('products').values(batch).execute();
        count += batch.length;
        batch = [];
      };
      for (const product of products) {
        batch.push(this.row(ownerId, product, product.createdAt));
        if (batch.length === BATCH_ROWS) await flush();
      }
      await flush();
      await bumpCatalogueVersion(trx, ownerId);
    });
    return count;
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
  listQuery(ownerId: string, { sort, limit, q, after }: ListOptions) {
    return this.pageQuery(ownerId, sort, { text: q ? searchText(q) : '', after, rows: limit + 1 });
  }

  /**
   * Up to `rows` rows of the owner in the sort's order, past `after` and up to `until` (included),
   * among `rowids` if given, that contain the folded `text` (every row when it is empty).
   */
  private pageQuery(
    ownerId: string,
    sort: ProductSort,
    options: { text: string; after?: Position; until?: Position; rowids?: number[]; rows: number },
  ) {
    const { text, after, until, rowids, rows } = options;
    const { column, direction } = SORT_ORDERS[sort];
    let query = this.db
      .selectFrom('products')
      .select(LIST_COLUMNS)
      .select((eb) => eb.ref(column).as('sort_key'));
    query = rowids
      ? query.where(ownedAmong(ownerId, rowids))
      : query.where('owner_id', '=', ownerId);
    if (text) query = query.where(this.contains(text));
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
  async list(ownerId: string, options: ListOptions) {
    const { sort, limit, q, after } = options;
    const rows = await this.pageRows(ownerId, sort, q ? searchText(q) : '', limit + 1, after);
    const hasMore = rows.length > limit;
    return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  private pageRows(
    ownerId: string,
    sort: ProductSort,
    text: string,
    rows: number,
    after: Position | undefined,
  ): Promise<ListRow[]> {
    const page = () => this.pageQuery(ownerId, sort, { text, after, rows }).execute();
    if (!text) return page();
    if (this.dialect === 'sqlite') return this.searchSqlite(ownerId, sort, text, rows, after);
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
    text: string,
    wanted: number,
    after: Position | undefined,
  ): Promise<ListRow[]> {
    const trigrams = trigramQuery(text);
    if (trigrams !== undefined) {
      const { candidatesMax } = this.limits;
      const query = this.candidatesQuery(trigrams, candidatesMax + 1);
      const { rows } = await searchLane.run(() => query.execute(this.db));
      if (rows.length <= candidatesMax) {
        const candidates = rows.map((row) => row.rowid);
        return this.searchCandidates(ownerId, sort, text, wanted, after, candidates);
      }
    }
    return this.searchInWindows(ownerId, sort, text, wanted, after);
  }

  /** The page among the candidates: checked a window at a time, then read in order. */
  private async searchCandidates(
    ownerId: string,
    sort: ProductSort,
    text: string,
    wanted: number,
    after: Position | undefined,
    candidates: number[],
  ): Promise<ListRow[]> {
    const matches: number[] = [];
    const { windowRows } = this.limits;
    for (let i = 0; i < candidates.length; i += windowRows) {
      const query = this.checkQuery(
        ownerId,
        sort,
        text,
        after,
        candidates.slice(i, i + windowRows),
      );
      const rows = await searchLane.run(() => query.execute());
      matches.push(...rows.map((row) => row.rowid));
    }
    if (matches.length === 0) return [];
    const page = this.amongQuery(ownerId, sort, matches, wanted);
    return searchLane.run(() => page.execute());
  }

  /** Which of these rows are the owner's, past `after`, and contain the text (SQLite). */
  checkQuery(
    ownerId: string,
    sort: ProductSort,
    text: string,
    after: Position | undefined,
    rowids: number[],
  ) {
    return this.db
      .selectFrom('products')
      .select(sql<number>`rowid`.as('rowid'))
      .where(ownedAmong(ownerId, rowids))
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .where(this.contains(text));
  }

  /** The first `rows` of the owner's products among these rows, in the sort's order (SQLite). */
  amongQuery(ownerId: string, sort: ProductSort, rowids: number[], rows: number) {
    return this.pageQuery(ownerId, sort, { text: '', rowids, rows });
  }

  /** The page from the owner's rows in the sort's order, windowRows at a time. */
  private async searchInWindows(
    ownerId: string,
    sort: ProductSort,
    text: string,
    wanted: number,
    after: Position | undefined,
  ): Promise<ListRow[]> {
    const found: ListRow[] = [];
    let from = after;
    for (;;) {
      const start = from;
      const rows = wanted - found.length;
      const { page, until } = await searchLane.run(() =>
        this.searchWindow(ownerId, sort, text, start, rows),
      );
      found.push(...page);
      if (found.length === wanted || until === undefined) return found;
      from = until;
    }
  }

  /** Up to `rows` matches among the windowRows rows past `after`, and the window's end. */
  private async searchWindow(
    ownerId: string,
    sort: ProductSort,
    text: string,
    after: Position | undefined,
    rows: number,
  ) {
    const { column, direction } = SORT_ORDERS[sort];
    // The window's last row, read from the (owner, column, id) index alone; none past the end.
    const until: Position | undefined = await this.db
      .selectFrom('products')
      .select((eb) => [eb.ref(column).as('key'), 'id'])
      .where('owner_id', '=', ownerId)
      .$if(after !== undefined, (query) => query.where(beyond(sort, after!)))
      .orderBy(column, direction)
      .orderBy('id', direction)
      .offset(this.limits.windowRows - 1)
      .limit(1)
      .executeTakeFirst();
    const page: ListRow[] = await this.pageQuery(ownerId, sort, {
      text,
      after,
      until,
      rows,
    }).execute();
    return { page, until };
  }

  /**
   * Applies the changes and returns the new row with the image key it replaced (null when the
   * image stayed or there was none). The row is locked while read and written, so derived columns
   * stay in step with concurrent edits.
   */
  async update(ownerId: string, id: string, changes: ProductChanges, now: number) {
    if (!UUID.test(id)) return undefined;
    return this.db.transaction().execute(async (trx) => {
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
      const values = {
        name,
        name_key: nameKey(name),
        description,
        price_cents: changes.priceCents ?? current.price_cents,
        stock: changes.stock ?? current.stock,
        image_key: changes.image ? changes.image.key : current.image_key,
        image_width: changes.image ? changes.image.width : current.image_width,
        image_height: changes.image ? changes.image.height : current.image_height,
        updated_at: now,
      };
      await trx
        .updateTable('products')
        .set({ ...values, search_key: searchKey(name, description) })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .execute();
      await bumpCatalogueVersion(trx, ownerId);
      const replacedImageKey = changes.image !== undefined ? current.image_key : null;
      const row: ProductRow = { ...current, ...values };
      return { row, replacedImageKey };
    });
  }

  /** Deletes the row; returns its image key (or null), or undefined when there was no such row. */
  async delete(ownerId: string, id: string): Promise<{ imageKey: string | null } | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('products')
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .returning('image_key')
        .executeTakeFirst();
      if (!row) return undefined;
      await bumpCatalogueVersion(trx, ownerId);
      return { imageKey: row.image_key };
    });
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

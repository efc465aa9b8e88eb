import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { sql, type SqlBool } from 'kysely';
import type { ProductSort } from '../../shared/constants.js';
import type { DB } from '../db/index.js';
import type { MigrationDialect } from '../db/migrate.js';
import type { ProductsTable } from '../db/schema.js';
import { SORT_ORDERS, type Position } from './cursor.js';
import { containsPattern, nameKey, searchKey, searchText, trigramQuery } from './keys.js';

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
  'created_at',
  'updated_at',
] as const;

export interface NewProduct {
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  imageKey: string | null;
}

export interface ProductChanges {
  name?: string | undefined;
  description?: string | undefined;
  priceCents?: number | undefined;
  stock?: number | undefined;
  /** A new image; leaving it out keeps the current one. */
  imageKey?: string | undefined;
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
 * Rows of the owner's catalogue one search statement reads at most on SQLite, where a statement
 * runs on the event loop from start to end. Checking a row costs at most about 0.2 ms (a 10,401-
 * character key against a 200-character query, see keys.ts), so one statement holds the loop for
 * well under 100 ms however large or hostile the catalogue; a search that needs more rows takes
 * more statements, and other requests are served in between.
 */
export const SEARCH_WINDOW_ROWS = 500;

/**
 * Every product query, each one scoped by owner. Ids that are not UUIDs match nothing without a
 * query, so a malformed id is a plain "not found" on both engines.
 */
export class ProductRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
    private readonly searchWindowRows = SEARCH_WINDOW_ROWS,
  ) {}

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
      image_key: product.imageKey,
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
   * statement: on SQLite, list() runs a search in windows instead (see searchInWindows).
   */
  listQuery(ownerId: string, { sort, limit, q, after }: ListOptions) {
    return this.pageQuery(ownerId, sort, { text: q ? searchText(q) : '', after, rows: limit + 1 });
  }

  /**
   * Up to `rows` rows of the owner in the sort's order, past `after` and up to `until` (included),
   * that contain the folded `text` (every row when it is empty).
   */
  private pageQuery(
    ownerId: string,
    sort: ProductSort,
    {
      text,
      after,
      until,
      rows,
    }: { text: string; after?: Position; until?: Position; rows: number },
  ) {
    const { column, direction } = SORT_ORDERS[sort];
    let query = this.db
      .selectFrom('products')
      .select(LIST_COLUMNS)
      .select((eb) => eb.ref(column).as('sort_key'))
      .where('owner_id', '=', ownerId);
    if (text) query = query.where(this.contains(text));
    if (after) query = query.where(beyond(sort, after));
    if (until) query = query.where(upTo(sort, until));
    return query.orderBy(column, direction).orderBy('id', direction).limit(rows);
  }

  /**
   * Whether a row's search key contains the folded text. PostgreSQL: LIKE, which its pg_trgm GIN
   * index serves from 3 characters on. SQLite: the FTS5 trigram index narrows the rows to those
   * holding every trigram of the text, and instr() checks each of them: a byte comparison, many
   * times cheaper than LIKE on long keys. Shorter texts have no trigram: every row of the owner is
   * checked, each at the cost of one bounded key (SEARCH_DESCRIPTION_MAX).
   */
  private contains(text: string) {
    if (this.dialect === 'postgres') {
      // PostgreSQL text cannot hold NUL, so no key contains one (and the driver refuses to send it).
      if (text.includes('\0')) return sql<SqlBool>`false`;
      return sql<SqlBool>`search_key like ${containsPattern(text)} escape '\\'`;
    }
    const found = sql<SqlBool>`instr(search_key, ${text}) > 0`;
    const trigrams = trigramQuery(text);
    if (trigrams === undefined) return found;
    // `+rowid`: the index answers membership only, so the owner's rows are still read in the sort's
    // order, from the window alone. Driven by the index instead, SQLite would check every
    // candidate of every owner in each window.
    return sql<SqlBool>`+rowid in (select rowid from product_search where product_search match ${trigrams}) and ${found}`;
  }

  /** One page in the requested order, plus whether another page follows. */
  async list(ownerId: string, options: ListOptions) {
    const { sort, limit, q, after } = options;
    const text = q ? searchText(q) : '';
    const rows: ListRow[] =
      text && this.dialect === 'sqlite'
        ? await this.searchInWindows(ownerId, sort, text, limit + 1, after)
        : await this.pageQuery(ownerId, sort, { text, after, rows: limit + 1 }).execute();
    const hasMore = rows.length > limit;
    return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  /**
   * A search on SQLite, as a series of statements that each read at most searchWindowRows rows of
   * the owner (see SEARCH_WINDOW_ROWS), yielding to the event loop between them. The result is the
   * same as one statement's: windows follow each other in the sort's order.
   */
  private async searchInWindows(
    ownerId: string,
    sort: ProductSort,
    text: string,
    wanted: number,
    after: Position | undefined,
  ) {
    const { column, direction } = SORT_ORDERS[sort];
    const found: ListRow[] = [];
    let from = after;
    for (;;) {
      // The window's last row, read from the (owner, column, id) index alone.
      const until: Position | undefined = await this.db
        .selectFrom('products')
        .select((eb) => [eb.ref(column).as('key'), 'id'])
        .where('owner_id', '=', ownerId)
        .$if(from !== undefined, (query) => query.where(beyond(sort, from!)))
        .orderBy(column, direction)
        .orderBy('id', direction)
        .offset(this.searchWindowRows - 1)
        .limit(1)
        .executeTakeFirst();
      const page = await this.pageQuery(ownerId, sort, {
        text,
        after: from,
        until,
        rows: wanted - found.length,
      }).execute();
      found.push(...page);
      if (found.length === wanted || until === undefined) return found;
      from = until;
      await setImmediate();
    }
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
        image_key: changes.imageKey ?? current.image_key,
        updated_at: now,
      };
      await trx
        .updateTable('products')
        .set({ ...values, search_key: searchKey(name, description) })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .execute();
      await bumpCatalogueVersion(trx, ownerId);
      const replacedImageKey = changes.imageKey !== undefined ? current.image_key : null;
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

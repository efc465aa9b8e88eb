import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import type { ProductSort } from '../../shared/constants.js';
import type { DB } from '../db/index.js';
import type { MigrationDialect } from '../db/migrate.js';
import type { ProductsTable } from '../db/schema.js';
import { SORT_ORDERS, type Position } from './cursor.js';
import { containsPattern, nameKey, searchKey } from './keys.js';

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
 * Every product query, each one scoped by owner. Ids that are not UUIDs match nothing without a
 * query, so a malformed id is a plain "not found" on both engines.
 */
export class ProductRepository {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
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

  /** The query behind a page: one more row than asked for tells whether another page follows. */
  listQuery(ownerId: string, { sort, limit, q, after }: ListOptions) {
    const { column, direction } = SORT_ORDERS[sort];
    let query = this.db
      .selectFrom('products')
      .select(LIST_COLUMNS)
      .select((eb) => eb.ref(column).as('sort_key'))
      .where('owner_id', '=', ownerId);
    if (q) {
      query = query.where(sql<SqlBool>`search_key like ${containsPattern(q)} escape '\\'`);
    }
    if (after) {
      // A row-value comparison: both engines make it a range on the (owner, column, id) index.
      const past = sql.raw(direction === 'asc' ? '>' : '<');
      query = query.where(
        sql<SqlBool>`(${sql.ref(column)}, id) ${past} (${after.key}, ${after.id})`,
      );
    }
    return query
      .orderBy(column, direction)
      .orderBy('id', direction)
      .limit(limit + 1);
  }

  /** One page in the requested order, plus whether another page follows. */
  async list(ownerId: string, options: ListOptions) {
    const rows: ListRow[] = await this.listQuery(ownerId, options).execute();
    const hasMore = rows.length > options.limit;
    return { rows: hasMore ? rows.slice(0, options.limit) : rows, hasMore };
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

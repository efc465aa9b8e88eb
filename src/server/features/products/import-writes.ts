import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { sql } from 'kysely';
import type { MovementSource } from '../../../shared/constants.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { replanAsTablesGrow } from '../../infra/db/planner-statistics.js';
import { writeCatalogue, type CatalogueWrite } from '../writes/index.js';
import { codeKeys, rethrowCodeTaken } from './codes.js';
import { lastMovedAtOnceMovedAt, recordMovements, type Movement } from './movements.js';
import {
  markedAtCreation,
  markOnceWritten,
  onReorderPointsReached,
  readCataloguePoint,
  type Crossing,
} from './reorder.js';
import { flushSearchIndexTurn } from './search/sqlite-merges.js';
import {
  BATCH_ROWS,
  batchesOf,
  statementBatchesOf,
  type ImportedUpdate,
  type NewProduct,
  type ProductInsert,
} from './rows.js';
import { insertTags, newProductRow, replaceTags, textColumns } from './write-helpers.js';

/** New products' rows, made before their write and grouped as it inserts them. */
export type StagedProducts = ProductInsert[][];

/**
 * Ids that sort in the order they are made within runs of BATCH_ROWS (a staged batch), in the layout of UUID version
 * 8 (RFC 9562's custom one): a first character that moves to the next of the 16 hex digits with
 * each run (from a random one), the time the load started, a 24-bit count, then 48 random bits. A
 * run's rows follow each other in every index keyed by the product's id (the products', their
 * days', top movers' windows', stock levels' and movements'), so a batch of 100 writes a few pages
 * of each instead of 100 scattered ones, which a transaction of 100 rows spends most of its time
 * writing. The first character still spreads a load's products evenly over the 16 ranges a
 * location's summary adds up one at a time, as random ids do.
 */
function orderedIds(startedAt: number): () => string {
  let count = 0;
  const firstRun = randomBytes(1)[0]!;
  // Random bytes drawn for many ids at once: one call each costs microseconds.
  let pool = Buffer.alloc(0);
  return () => {
    if (count % ID_POOL === 0) pool = randomBytes(6 * ID_POOL);
    const random = pool.toString('hex', (count % ID_POOL) * 6, (count % ID_POOL) * 6 + 6);
    const range = ((firstRun + Math.floor(count / BATCH_ROWS)) % 16).toString(16);
    // Past 2^24 rows the time moves on a millisecond: still in order, still unique.
    const time = (startedAt + Math.floor(count / 0x1000000)).toString(16).padStart(11, '0');
    const counter = (count % 0x1000000).toString(16).padStart(6, '0');
    count += 1;
    return `${range}${time.slice(0, 7)}-${time.slice(7)}-8${counter.slice(0, 3)}-8${counter.slice(3)}-${random}`;
  };
}
const ID_POOL = 1024;

/** Rows numbered in one turn of the event loop: a few milliseconds. */
const NUMBERED_PER_TURN = 5_000;

/**
 * Makes the rows of new products, with a turn of the event loop between batches (folding names
 * and descriptions for search costs CPU too), before the transaction opens; then numbers them in
 * the order of their stock (orderedIds; the file's order within a stock) and groups them as
 * `batchesOf` writes them. A batch's rows then sit side by side in most of the indexes they go
 * into: those by id, and those by stock (the stock list, the reorder list, the top movers').
 */
export async function stageProducts(
  dialect: MigrationDialect,
  target: { id: string; actorId: string | null },
  products: Iterable<NewProduct & { createdAt: number }>,
): Promise<StagedProducts> {
  const rows = (function* () {
    for (const product of products)
      yield newProductRow(target.id, target.actorId, product, product.createdAt);
  })();
  // By stock as they are made: no sort of the rows themselves, which takes a whole turn.
  const byStock = new Map<number, ProductInsert[]>();
  for (const batch of batchesOf(rows, (row) => row.search_key.length)) {
    for (const row of batch) {
      const same = byStock.get(row.stock);
      if (same) same.push(row);
      else byStock.set(row.stock, [row]);
    }
    await setImmediate();
  }
  const nextId = orderedIds(Date.now());
  const ordered: ProductInsert[] = [];
  for (const stock of [...byStock.keys()].sort((a, b) => a - b)) {
    for (const row of byStock.get(stock)!) {
      row.id = nextId();
      ordered.push(row);
      if (ordered.length % NUMBERED_PER_TURN === 0) await setImmediate();
    }
  }
  return [...statementBatchesOf(dialect, ordered, (row) => row.search_key.length)];
}

/**
 * Bulk loading (imports, benchmarks) in the write's transaction: rows written over existing
 * products, then new products with their movement (`source`'s), a batch at a time with a turn of
 * the event loop between batches: other requests are answered meanwhile (on SQLite, reads go to
 * another connection; other writes wait for the commit, without blocking the event loop).
 */
export async function loadProducts(
  w: CatalogueWrite,
  batches: StagedProducts,
  source: MovementSource = 'import',
  updates: ImportedUpdate[] = [],
): Promise<{ created: number; updated: number }> {
  const { trx, catalogueId } = w;
  let created = 0;
  let updated = 0;
  const grew = replanAsTablesGrow(trx, w.dialect);
  try {
    // Read and written BATCH_ROWS at a time; the search index's work is bounded when written.
    // In the order of the products' ids, not the file's: most of what a change of stock writes
    // (the product, its days and windows, its movements' indexes by product) is keyed by the id,
    // so a batch of neighbours writes a few pages of each where file order wrote one page a row.
    // Measured on 50,000 rows into 100,000 products (SQLite): half the CPU of file order.
    for (const batch of batchesOf(await sortedById(updates), () => 0)) {
      updated += await applyImported(w, batch);
      await grew(created + updated);
      await setImmediate();
    }
    // The write holds its catalogue: its point cannot change before the commit.
    const point = batches.length > 0 ? await readCataloguePoint(trx, catalogueId) : 0;
    // Announced together: thousands of events are queued as a few rows (enqueue.ts).
    const reached: Crossing[] = [];
    for (const batch of batches) {
      if (batch.length === 0) continue;
      const at = Math.max(...batch.map((row) => row.created_at));
      const { rows, crossed } = markedAtCreation(batch, point, at);
      await trx.insertInto('products').values(rows).execute();
      await flushSearchIndexTurn(trx, w.dialect);
      await insertTags(trx, catalogueId, batch);
      await setImmediate();
      const movements = batch.map((row) => ({
        productId: row.id,
        oldStock: 0,
        newStock: row.stock,
        source,
        at: row.created_at,
      }));
      await recordMovements(w, movements);
      for (const crossing of crossed) reached.push(crossing);
      created += batch.length;
      await grew(created + updated);
      await setImmediate();
    }
    await onReorderPointsReached(trx, catalogueId, reached, w.now);
  } catch (error) {
    rethrowCodeTaken(error);
  }
  return { created, updated };
}

/** Updates sorted, or merged, in one turn of the event loop: a few milliseconds. */
const SORTED_PER_TURN = 2_000;

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The updates in the order of their products' ids (a copy: the caller's order stays), a few
 * thousand at a time with a turn of the event loop between (one sort of 50,000 ids took 90 to
 * 900 ms on a loaded machine): runs sorted alone, then merged two by two.
 */
async function sortedById(updates: ImportedUpdate[]): Promise<ImportedUpdate[]> {
  let runs: ImportedUpdate[][] = [];
  for (let i = 0; i < updates.length; i += SORTED_PER_TURN) {
    runs.push(updates.slice(i, i + SORTED_PER_TURN).sort(byId));
    if (i + SORTED_PER_TURN < updates.length) await setImmediate();
  }
  while (runs.length > 1) {
    const merged: ImportedUpdate[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const [left, right = []] = [runs[r]!, runs[r + 1]];
      const run: ImportedUpdate[] = [];
      let [i, j] = [0, 0];
      while (i < left.length || j < right.length) {
        if (j === right.length || (i < left.length && byId(left[i]!, right[j]!) <= 0)) {
          run.push(left[i++]!);
        } else {
          run.push(right[j++]!);
        }
        if (run.length % SORTED_PER_TURN === 0) await setImmediate();
      }
      merged.push(run);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/** The columns an import's row may write over a product, with their type (both engines'). */
const UPDATED_COLUMNS = {
  name: 'text',
  name_key: 'text',
  description: 'text',
  search_key: 'text',
  sku: 'text',
  barcode: 'text',
  sku_key: 'text',
  barcode_key: 'text',
  price_cents: 'bigint',
  stock: 'integer',
  tags: 'text',
  cost_cents: 'bigint',
  reorder_point: 'integer',
  reorder_quantity: 'integer',
  // Not a column of the file: the reorder mark its stock and point move (markOnceWritten).
  reorder_crossed_at: 'bigint',
} as const;
type UpdatedColumn = keyof typeof UPDATED_COLUMNS;
type UpdatedValue = string | number | null;

/** Rows to write over their products, all changing the same columns. */
interface Rewrite {
  columns: UpdatedColumn[];
  rows: { id: string; at: number; values: UpdatedValue[]; searchChars: number }[];
}

/**
 * Writes one group of rows in one statement, set-based: `update … from (values …)` on both engines,
 * each value cast to its column's type (PostgreSQL reads the parameters of a VALUES list as text).
 * Only the columns that change are set: every index over a column set is rewritten, even to the
 * same value, and so would the search index be on SQLite. The triggers keep what they kept row by
 * row: SQLite's fire per row, PostgreSQL's statement triggers once over the statement's rows.
 */
async function rewrite(w: CatalogueWrite, { columns, rows }: Rewrite): Promise<void> {
  // VALUES columns are column1, column2, … on both engines: the id, the time, then the values.
  const sets = columns.map(
    (column, i) =>
      sql`${sql.ref(column)} = cast(${sql.ref(`u.column${i + 3}`)} as ${sql.raw(UPDATED_COLUMNS[column])})`,
  );
  const values = rows.map(({ id, at, values }) => sql`(${sql.join([id, at, ...values])})`);
  const at = sql`cast(u.column2 as bigint)`;
  // A change of stock is a movement at `at`: when the product last moved is set here as the
  // movements' trigger would set it (migration 042), which then finds nothing left to write,
  // instead of writing each product a second time (a tenth of a 50,000-row re-import's CPU).
  const moved = columns.includes('stock')
    ? [sql`last_moved_at = ${lastMovedAtOnceMovedAt(at)}`]
    : [];
  await sql`update products set ${sql.join([
    ...sets,
    sql`updated_at = ${at}`,
    sql`updated_by = ${w.actorId}`,
    ...moved,
  ])}
    from (values ${sql.join(values)}) as u
    where products.catalogue_id = ${w.catalogueId} and products.id = u.column1`.execute(w.trx);
}

/**
 * Writes import rows over existing products (a batch of `batchesOf`): their fields, not their images
 * or history; a change of stock is recorded as an `import` movement from the stock the product
 * had then. The products are read, written, re-tagged, their movements recorded and their reorder
 * points checked a batch at a time: a few statements per batch, not per row (the rows that change
 * the same columns in one update). Returns how many were written (a product gone meanwhile is not).
 */
export async function applyImported(w: CatalogueWrite, updates: ImportedUpdate[]): Promise<number> {
  const { trx, catalogueId } = w;
  const currents = new Map(
    (
      await trx
        .selectFrom('products')
        .select(['id', ...(Object.keys(UPDATED_COLUMNS) as UpdatedColumn[])])
        .where('catalogue_id', '=', catalogueId)
        .where(
          'id',
          'in',
          updates.map((update) => update.id),
        )
        .$if(w.dialect === 'postgres', (query) => query.forUpdate())
        .execute()
    ).map((row) => [row.id, row]),
  );
  const retagged: { id: string; tags: string }[] = [];
  const movements: Movement[] = [];
  const crossed: Crossing[] = [];
  const rewrites = new Map<string, Rewrite>();
  const found = updates.filter((update) => currents.has(update.id));
  // When the batch's crossings are marked: its latest row's time, as for its new products.
  const at = Math.max(0, ...found.map((update) => update.at));
  const point = found.length > 0 ? await readCataloguePoint(trx, catalogueId) : 0;
  for (const { id, product, at: when } of found) {
    const current = currents.get(id)!;
    const tags = product.tags === undefined ? current.tags : JSON.stringify(product.tags);
    const codes = {
      sku: product.sku === undefined ? current.sku : product.sku,
      barcode: product.barcode === undefined ? current.barcode : product.barcode,
    };
    const keys = codeKeys(codes);
    const values: Partial<Record<UpdatedColumn, UpdatedValue>> = {
      ...textColumns(product.name, product.description, keys),
      ...codes,
      ...keys,
      price_cents: product.priceCents,
      stock: product.stock,
      tags,
      ...(product.costCents === undefined ? {} : { cost_cents: product.costCents }),
      ...(product.reorderPoint === undefined ? {} : { reorder_point: product.reorderPoint }),
      ...(product.reorderQuantity === undefined
        ? {}
        : { reorder_quantity: product.reorderQuantity }),
    };
    // The mark in the same statement: a second one would write the product's row again.
    const { mark, crossed: crossing } = markOnceWritten(
      {
        ...current,
        name: product.name,
        stock: product.stock,
        reorder_point:
          product.reorderPoint === undefined ? current.reorder_point : product.reorderPoint,
      },
      point,
      at,
    );
    values.reorder_crossed_at = mark;
    if (crossing) crossed.push(crossing);
    // Only the columns that change (a re-import mostly changes stocks): grouped by which.
    const changed = (Object.keys(values) as UpdatedColumn[]).filter(
      (column) => String(values[column]) !== String(current[column]),
    );
    const key = changed.join();
    const group = rewrites.get(key) ?? { columns: changed, rows: [] };
    group.rows.push({
      id,
      at: when,
      values: changed.map((column) => values[column] ?? null),
      // A changed search key is taken out of the search index and put in again: counted twice.
      searchChars: changed.includes('search_key') ? 2 * String(values.search_key).length : 0,
    });
    rewrites.set(key, group);
    if (tags !== current.tags) retagged.push({ id, tags });
    if (product.stock !== current.stock) {
      const movement = { productId: id, oldStock: current.stock, newStock: product.stock };
      movements.push({ ...movement, source: 'import', at: when });
    }
  }
  // The search index's work bounded per statement, as a bulk load's (a turn between them), and
  // written, with a merge step, in turns of its own after each that changed search keys.
  for (const { columns, rows } of rewrites.values()) {
    for (const chunk of statementBatchesOf(w.dialect, rows, (row) => row.searchChars)) {
      await rewrite(w, { columns, rows: chunk });
      if (columns.includes('search_key')) await flushSearchIndexTurn(trx, w.dialect);
      if (chunk.length < rows.length) await setImmediate();
    }
  }
  await replaceTags(trx, catalogueId, retagged);
  await recordMovements(w, movements);
  await onReorderPointsReached(trx, catalogueId, crossed, at);
  return found.length;
}

/**
 * A bulk load outside any request (benchmarks, tools, tests): new products with their movements
 * (`source`'s), in one write that bumps the catalogue's version and records no activity.
 */
export async function bulkLoad(
  database: { db: DB; dialect: MigrationDialect },
  target: string | { id: string; actorId: string | null },
  products: Iterable<NewProduct & { createdAt: number }>,
  source: MovementSource = 'import',
): Promise<{ created: number; updated: number }> {
  const writer = typeof target === 'string' ? { id: target, actorId: null } : target;
  const staged = await stageProducts(database.dialect, writer, products);
  const { answer } = await writeCatalogue(database, writer, Date.now(), async (w) => {
    const body = await loadProducts(w, staged, source);
    return { answer: { status: 200, body } };
  });
  return answer.body;
}

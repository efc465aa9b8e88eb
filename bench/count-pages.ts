/**
 * `npm run bench:count-pages`: what posting a count of 1,000 lines costs as the
 * catalogue grows, in-process (bench/results-count-post.md), and the reads of the indexes a stock
 * change writes (the top movers, the list sorted by stock, the lists filtered by stock).
 *
 * Per engine (BENCH_ENGINE, `sqlite` or `postgres`) and size (BENCH_SIZES, default 1,000 and
 * 100,000 products), a catalogue seeded as `npm run bench:scale` seeds it (100,000 movements, stock
 * in 3 of 10,000 places each) with an open count of a new shelf: one line per product for the
 * 1,000 newest, each found 2 where none was expected. The seeded database is kept as a template
 * (os.tmpdir()/stockroom-count-pages, PostgreSQL: a database named after the size) and copied for
 * each process (BENCH_PROCESSES); each copy migrated, then vacuumed (SQLite). In each process: the
 * reads (BENCH_READS rounds, the median), then BENCH_ROUNDS postings through `writeCatalogue` +
 * `postCount`, each undone with `reverseCountPosting`. CPU milliseconds of this process (both
 * SQLite connections run in it) and, on PostgreSQL, of its connections' backends (/proc).
 * BENCH_PAGES=on (SQLite) also counts the pages of each b-tree the first posting dirtied
 * (BENCH_PAGES_ROUND=<n>: the nth posting's, counted from 0, once earlier ones split full pages).
 * BENCH_DROP=<index,…> (SQLite) drops those indexes from each copy: what the posting would cost
 * without them (with BENCH_READS=0, as reads may name them).
 * BENCH_SINGLE=<n> then changes the stock of n older products one at a time, one unit in and then
 * out again (the API's `changeStock`, a write each), and BENCH_IMPORT=<n> loads n new products
 * (the import's `bulkLoad`): CPU ms per change, and for the load.
 * BENCH_RAW=on (SQLite) makes each round also change the same rows through raw prepared
 * statements (bench/count-raw.ts): the products' stock alone, and every row the posting changes;
 * the app's posting and the raw changes go first in turn, and each is followed by a checkpoint
 * of the whole log (its CPU counted apart), so that none pays for another's pages.
 * BENCH_STATEMENTS=on adds up the CPU of each statement of the app's postings after the first,
 * by the statement's opening words (SQLite: a statement runs on the event loop).
 * BENCH_TRANSFER=<n> then moves a unit of each of n older products from a bin holding it to a
 * far bin and back, BENCH_ROUNDS times (the transfer route's `transferStock`, a write each way).
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DefaultQueryExecutor, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { PRODUCT_SORTS, STOCK_FILTERS } from '../src/shared/constants.js';
import { postCount, reverseCountPosting } from '../src/server/features/counts/writes.js';
import { bulkLoad } from '../src/server/features/products/import-writes.js';
import { changeStock } from '../src/server/features/products/stock-writes.js';
import { transferStock } from '../src/server/features/products/transfers.js';
import { ProductQueries } from '../src/server/features/products/queries.js';
import { ReportQueries } from '../src/server/features/reports/index.js';
import { writeCatalogue } from '../src/server/features/writes/index.js';
import type { DatabaseHandle } from '../src/server/infra/db/handle.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import { databaseUrl } from '../tests/server/support/database-template.js';
import { seedReportCatalogue } from '../tests/server/support/report-seed.js';
import { rawWriter } from './count-raw.js';
import { cpuReader } from './scale-cpu.js';
import { binCode, seedLocations, WAREHOUSES } from './scale-locations.js';
import { products as newProducts, seedUser } from './seed.js';
import { median } from './median.js';

const ENGINE = process.env.BENCH_ENGINE ?? 'sqlite';
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READS = Number(process.env.BENCH_READS ?? 5);
/** Reads per measurement. */
const BATCH = 20;
const PAGES = process.env.BENCH_PAGES === 'on';
const PAGES_ROUND = Number(process.env.BENCH_PAGES_ROUND ?? 0);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 0);
const IMPORT = Number(process.env.BENCH_IMPORT ?? 0);
const RAW = process.env.BENCH_RAW === 'on';
const TRANSFER = Number(process.env.BENCH_TRANSFER ?? 0);
const STATEMENTS = process.env.BENCH_STATEMENTS === 'on';
const POSTGRES = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MOVEMENTS = 100_000;
const LINES = 1_000;
const TEMPLATES = path.join(os.tmpdir(), 'stockroom-count-pages');
const PAGE = 4096;

/** CPU ms by statement, while `statements.on` (the postings) or `statements.transfers`. */
const statements = {
  on: false,
  ms: new Map<string, number>(),
  transfers: false,
  transferMs: new Map<string, number>(),
};
if (STATEMENTS) {
  type Executes = { executeQuery(query: CompiledQuery): Promise<unknown> };
  const prototype = DefaultQueryExecutor.prototype as unknown as Executes;
  const original = prototype.executeQuery;
  prototype.executeQuery = async function (this: Executes, query: CompiledQuery) {
    const into = statements.on
      ? statements.ms
      : statements.transfers
        ? statements.transferMs
        : null;
    if (!into) return original.call(this, query);
    const start = process.cpuUsage();
    try {
      return await original.call(this, query);
    } finally {
      const { user, system } = process.cpuUsage(start);
      const name = query.sql.replace(/\s+/g, ' ').slice(0, 90);
      into.set(name, (into.get(name) ?? 0) + (user + system) / 1000);
    }
  };
}

const templateName = (size: number) => `stockroom_count_pages_${size}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Opens a fresh copy of the size's template (seeding it first when there is none). */
async function openCopy(size: number, copy: string) {
  if (ENGINE === 'sqlite') {
    const template = path.join(TEMPLATES, `sqlite-${size}`);
    if (!(await stat(path.join(template, 'stockroom.db')).catch(() => null))) {
      await seed(size, { dataDir: template });
    }
    const dataDir = path.join(TEMPLATES, copy);
    await rm(dataDir, { recursive: true, force: true });
    await cp(template, dataDir, { recursive: true });
    const database = await openDatabase({ dataDir });
    for (const index of (process.env.BENCH_DROP ?? '').split(',').filter(Boolean))
      await sql`drop index ${sql.id(index)}`.execute(database.db);
    await sql`vacuum`.execute(database.db);
    return { database, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = templateName(size);
  const exists = await admin(
    async (client) =>
      (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount,
  );
  if (!exists) {
    await admin((client) => client.query(`create database ${name}`));
    await seed(size, { dataDir: TEMPLATES, databaseUrl: databaseUrl(POSTGRES, name) });
  }
  const copyName = `stockroom_count_pages_${copy.replace(/\W/g, '_')}`;
  await admin(async (client) => {
    await client.query(`drop database if exists ${copyName} with (force)`);
    await client.query(`create database ${copyName} template ${name}`);
  });
  const url = databaseUrl(POSTGRES, copyName);
  const database = await openDatabase({ dataDir: TEMPLATES, databaseUrl: url });
  await sql`vacuum analyze`.execute(database.db);
  return {
    database,
    dataDir: undefined,
    url,
    drop: () => admin((client) => client.query(`drop database if exists ${copyName} with (force)`)),
  };
}

/** The catalogue as bench:scale seeds it, and an open count of a shelf of the newest products. */
async function seed(size: number, options: { dataDir: string; databaseUrl?: string }) {
  console.log(`seeding ${size}…`);
  const database = await openDatabase(options);
  try {
    const user = await seedUser(database.db, 'pages@bench.test');
    await seedReportCatalogue(database, user.id, Date.now(), {
      products: size,
      movements: Math.max(size, MOVEMENTS),
    });
    await seedLocations(database, user.id);
    const now = Date.now();
    const shelf = randomUUID();
    await database.db
      .insertInto('locations')
      .values({
        id: shelf,
        catalogue_id: user.id,
        parent_id: null,
        name: 'Counted shelf',
        name_key: 'counted shelf',
        code: 'COUNTED-SHELF',
        code_key: 'counted-shelf',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const countId = randomUUID();
    await database.db
      .insertInto('counts')
      .values({
        id: countId,
        catalogue_id: user.id,
        name: 'Counted shelf',
        scope_kind: 'location',
        scope_location_id: shelf,
        scope_tag: null,
        scope_key: `location:${shelf}`,
        blind: 0,
        status: 'review',
        created_by: user.id,
        created_at: now,
        updated_at: now,
        posted_at: null,
        lines: LINES,
      })
      .execute();
    const newest = await database.db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LINES)
      .execute();
    await database.db
      .insertInto('count_lines')
      .values(
        newest.map(({ id }) => ({
          count_id: countId,
          product_id: id,
          location_id: shelf,
          catalogue_id: user.id,
          expected: 0,
          counted: 2,
          counted_by: user.id,
          counted_at: now,
        })),
      )
      .execute();
    if (database.dialect === 'sqlite') await sql`vacuum`.execute(database.db);
  } finally {
    await database.close();
  }
}

/** Each page of the file, to tell which ones a posting changed. */
async function pagesOf(file: string) {
  const raw = new SQLite(file);
  try {
    // Until the whole log is in the file: a checkpoint that a reader held up leaves pages in the
    // log, which the file's image would then miss.
    for (let attempt = 0; ; attempt += 1) {
      const [done] = raw.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (done?.busy === 0) break;
      if (attempt === 50) throw new Error('the log could not be checkpointed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    raw.close();
  }
  return readFile(file);
}

/** The b-trees of the pages that differ between two images of the file. */
function dirtied(file: string, before: Buffer, after: Buffer) {
  const raw = new SQLite(file, { readonly: true });
  const owner = new Map<number, string>();
  for (const row of raw.prepare('select name, pageno from dbstat').iterate() as Iterable<{
    name: string;
    pageno: number;
  }>)
    owner.set(row.pageno, row.name);
  raw.close();
  const byTree = new Map<string, number>();
  const pages = Math.max(before.length, after.length) / PAGE;
  for (let page = 0; page < pages; page += 1) {
    const a = before.subarray(page * PAGE, (page + 1) * PAGE);
    const b = after.subarray(page * PAGE, (page + 1) * PAGE);
    if (a.equals(b)) continue;
    const name = owner.get(page + 1) ?? '(free or new)';
    byTree.set(name, (byTree.get(name) ?? 0) + 1);
  }
  return [...byTree].sort((x, y) => y[1] - x[1]);
}

async function measureCopy(size: number, copy: string) {
  const opened = await openCopy(size, copy);
  const { database } = opened;
  const cpu = await cpuReader(process.pid, opened.url);
  // This process by its own clock (microseconds), its backends by /proc (clock ticks).
  const used = async () => {
    const { user, system } = process.cpuUsage();
    const backends = [...(await cpu())].filter(([thread]) => !thread.startsWith(`${process.pid}/`));
    return (user + system) * 1000 + backends.reduce((sum, [, ns]) => sum + ns, 0);
  };
  const costOf = async (work: () => Promise<unknown>) => {
    const start = await used();
    await work();
    return ((await used()) - start) / 1e6;
  };
  try {
    const { db, dialect } = database;
    const { id: catalogueId, created_by: actorId } = await db
      .selectFrom('counts')
      .select(['catalogue_id as id', 'created_by'])
      .executeTakeFirstOrThrow();
    const { id: countId } = await db.selectFrom('counts').select('id').executeTakeFirstOrThrow();
    const reads = await measureReads(database, catalogueId, costOf);
    const postings: number[] = [];
    let pages: [string, number][] | undefined;
    const file = opened.dataDir ? path.join(opened.dataDir, 'stockroom.db') : undefined;
    const raw =
      RAW && file
        ? rawWriter({
            file,
            catalogueId,
            actorId: actorId!,
            ...(await countRows(database, countId)),
          })
        : undefined;
    /** CPU ms of each step, and of the checkpoint after it (BENCH_RAW). */
    const steps: Record<string, { ms: number; checkpoint: number }[]> = {};
    const step = async (name: string, work: () => Promise<unknown>) => {
      const ms = await costOf(work);
      const checkpoint = raw ? await costOf(raw.checkpoint) : 0;
      (steps[name] ??= []).push({ ms, checkpoint });
      return ms;
    };
    const post = async (round: number) => {
      const before = PAGES && file && round === PAGES_ROUND ? await pagesOf(file) : undefined;
      statements.on = STATEMENTS && round > 0;
      postings.push(
        await step('app: posting', () =>
          writeCatalogue(
            { db, dialect },
            { id: catalogueId, actorId: actorId! },
            Date.now(),
            async (w) => {
              await postCount(w, countId, { uncountedAsZero: false, subtree: [] });
              return { answer: { status: 200, body: {} } };
            },
          ),
        ),
      );
      statements.on = false;
      if (before && file) pages = dirtied(file, before, await pagesOf(file));
      await step('app: undo', () =>
        writeCatalogue(
          { db, dialect },
          { id: catalogueId, actorId: actorId! },
          Date.now(),
          async (w) => {
            const undone = await reverseCountPosting(w, countId);
            if (undone.outcome !== 'done') throw new Error(`undo: ${undone.outcome}`);
            return { answer: { status: 200, body: {} } };
          },
        ),
      );
    };
    const rawSteps = async () => {
      if (!raw) return;
      await step('raw: products, +2', async () => raw.products(2));
      await step('raw: products, -2', async () => raw.products(-2));
      await step('raw: every row, +2', async () => raw.rows(2, false));
      await step('raw: every row, -2', async () => raw.rows(-2, false));
      await step('raw: its reads and every row, +2', async () => raw.rows(2, true));
      await step('raw: its reads and every row, -2', async () => raw.rows(-2, true));
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        await post(round);
        await rawSteps();
      } else {
        await rawSteps();
        await post(round);
      }
    }
    const writer = { id: catalogueId, actorId: actorId! };
    // Older products than the count's, spread over the catalogue as its ids are.
    const older = await db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .orderBy('created_at')
      .limit(SINGLE)
      .execute();
    const singles: number[] = [];
    for (const delta of [1, -1]) {
      if (SINGLE === 0) break;
      singles.push(
        (await costOf(async () => {
          for (const { id } of older)
            await writeCatalogue({ db, dialect }, writer, Date.now(), async (w) => {
              const done = await changeStock(w, id, { delta, reason: null, note: null });
              if (done.outcome !== 'done') throw new Error(`stock change: ${done.outcome}`);
              return { answer: { status: 200, body: {} } };
            });
        })) / SINGLE,
      );
    }
    const loaded =
      IMPORT > 0
        ? await costOf(() => bulkLoad({ db, dialect }, writer, [...newProducts(IMPORT)], 'import'))
        : undefined;
    const transfers =
      TRANSFER > 0 ? await measureTransfers(database, writer, step, raw?.transfer) : undefined;
    raw?.close();
    return { postings, reads, pages, singles, loaded, steps, transfers };
  } finally {
    await cpu.close();
    await database.close();
    await opened.drop();
  }
}

/** The count's shelf and the products of its lines. */
async function countRows({ db }: DatabaseHandle, countId: string) {
  const { shelf } = await db
    .selectFrom('counts')
    .select('scope_location_id as shelf')
    .where('id', '=', countId)
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('count_lines')
    .select('product_id')
    .where('count_id', '=', countId)
    .orderBy('product_id')
    .execute();
  return { shelf: shelf!, productIds: lines.map((line) => line.product_id) };
}

/**
 * CPU ms of each transfer of a unit of TRANSFER older products (spread over the catalogue as its
 * ids are) from a bin holding it to the last warehouse's last bin, and of each move back.
 */
async function measureTransfers(
  { db, dialect }: DatabaseHandle,
  writer: { id: string; actorId: string },
  step: (name: string, work: () => Promise<unknown>) => Promise<number>,
  raw?: (moves: [string, string][], to: string, out: boolean) => void,
) {
  const far = await db
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', writer.id)
    .where('code', '=', binCode(WAREHOUSES - 1, 9, 97))
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('products')
    .innerJoin('stock_levels', 'stock_levels.product_id', 'products.id')
    .select(['products.id as productId', 'stock_levels.location_id as from'])
    .where('products.catalogue_id', '=', writer.id)
    .where('stock_levels.location_id', 'not in', [writer.id, far.id])
    .where('stock_levels.quantity', '>', 0)
    .orderBy('products.created_at')
    .orderBy('products.id')
    .orderBy('stock_levels.location_id')
    .limit(TRANSFER * 4)
    .execute();
  const lines = new Map<string, string>();
  for (const { productId, from } of held) if (!lines.has(productId)) lines.set(productId, from);
  const moves = [...lines].slice(0, TRANSFER);
  if (moves.length < TRANSFER) console.warn(`  only ${moves.length} products to move`);
  const move = (out: boolean) =>
    writeCatalogue({ db, dialect }, writer, Date.now(), async (w) => {
      const done = await transferStock(
        w,
        moves.map(([productId, from]) => ({
          productId,
          from: out ? from : far.id,
          to: out ? far.id : from,
          quantity: 1,
        })),
      );
      if (done.outcome !== 'done') throw new Error(`transfer: ${done.outcome}`);
      return { answer: { status: 200, body: {} } };
    });
  const costs = { out: [] as number[], back: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    statements.transfers = STATEMENTS;
    costs.out.push(await step('app: transfer', () => move(true)));
    costs.back.push(await step('app: transfer back', () => move(false)));
    statements.transfers = false;
    if (!raw) continue;
    await step('raw: transfer', async () => raw(moves, far.id, true));
    await step('raw: transfer back', async () => raw(moves, far.id, false));
  }
  return costs;
}

/** The median CPU ms of each read whose index a stock change writes. */
async function measureReads(
  { db, dialect }: DatabaseHandle,
  catalogueId: string,
  costOf: (work: () => Promise<unknown>) => Promise<number>,
) {
  const reports = new ReportQueries(db, dialect);
  const products = new ProductQueries(db, dialect);
  const now = Date.now();
  const requests: Record<string, () => Promise<unknown>> = {
    'top movers, 365 days': () => reports.topMovers(catalogueId, now, 365, 100),
    // The API's default page, which bench:scale asks for.
    'top movers, 365 days, 10': () => reports.topMovers(catalogueId, now, 365, 10),
    'top movers, 30 days': () => reports.topMovers(catalogueId, now, 30, 10),
    'list, stock-asc': () =>
      products.listQuery(catalogueId, { sort: 'stock-asc', limit: 50 }).execute(),
    'list, stock-desc': () =>
      products.listQuery(catalogueId, { sort: 'stock-desc', limit: 50 }).execute(),
    // The list filtered to reorder in each of its orders.
    ...Object.fromEntries(
      PRODUCT_SORTS.map((sort) => [
        `list to reorder, ${sort}`,
        () => products.listQuery(catalogueId, { sort, limit: 50, stock: 'reorder' }).execute(),
      ]),
    ),
    // The list filtered to low stock and to out of stock in each of its orders: a page of 50, and
    // one of 5, which both sizes fill (the 1,000-product seed has 20 low and 8 out of stock).
    ...Object.fromEntries(
      PRODUCT_SORTS.flatMap((sort) =>
        STOCK_FILTERS.flatMap((stock) =>
          [50, 5].map((limit) => [
            `list ${stock} (${limit}), ${sort}`,
            () => products.listQuery(catalogueId, { sort, limit, stock }).execute(),
          ]),
        ),
      ),
    ),
    'to-reorder report': () => reports.toReorder(catalogueId, 100),
  };
  const costs: Record<string, number> = {};
  for (const [name, read] of Object.entries(requests)) {
    if (READS === 0) break;
    // The first of a day moves the windows on; then the caches are warm.
    await read();
    await read();
    // A batch at a time: the backends' CPU is read in clock ticks (10 ms).
    const rounds: number[] = [];
    for (let i = 0; i < READS; i += 1) {
      rounds.push(
        (await costOf(async () => {
          for (let j = 0; j < BATCH; j += 1) await read();
        })) / BATCH,
      );
    }
    costs[name] = median(rounds);
  }
  return costs;
}

async function main() {
  await mkdir(TEMPLATES, { recursive: true });
  console.log(
    `${ENGINE}, load ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
  for (const size of SIZES) {
    const postings: number[] = [];
    const reads: Record<string, number[]> = {};
    const steps: Record<string, { ms: number; checkpoint: number }[]> = {};
    const transfers = { out: [] as number[], back: [] as number[] };
    for (let p = 0; p < PROCESSES; p += 1) {
      const result = await measureCopy(size, `${ENGINE}-${size}-copy-${process.pid}`);
      postings.push(...result.postings);
      for (const [name, ms] of Object.entries(result.reads)) (reads[name] ??= []).push(ms);
      for (const [name, costs] of Object.entries(result.steps)) (steps[name] ??= []).push(...costs);
      if (result.transfers) {
        transfers.out.push(...result.transfers.out);
        transfers.back.push(...result.transfers.back);
        console.log(
          `  transfer of ${TRANSFER} lines CPU ms, out: ${result.transfers.out.map((ms) => ms.toFixed(0)).join(', ')}; back: ${result.transfers.back.map((ms) => ms.toFixed(0)).join(', ')}`,
        );
      }
      console.log(
        `${size}: posting CPU ms ${result.postings.map((ms) => ms.toFixed(0)).join(', ')}`,
      );
      if (result.singles.length > 0)
        console.log(
          `  single stock change CPU ms each: ${result.singles.map((ms) => ms.toFixed(2)).join(', ')}`,
        );
      if (result.loaded !== undefined)
        console.log(`  import of ${IMPORT} products CPU ms: ${result.loaded.toFixed(0)}`);
      if (result.pages) {
        const total = result.pages.reduce((sum, [, n]) => sum + n, 0);
        console.log(`  pages dirtied: ${total}`);
        for (const [name, n] of result.pages.slice(0, 40)) console.log(`    ${name}: ${n}`);
      }
    }
    console.log(
      `${size}: posting median ${median(postings).toFixed(0)} (${Math.min(...postings).toFixed(0)}–${Math.max(...postings).toFixed(0)})`,
    );
    if (RAW) {
      for (const [name, costs] of Object.entries(steps)) {
        const totals = costs.map(({ ms, checkpoint }) => ms + checkpoint);
        console.log(
          `  ${name}: CPU ms (+ checkpoint) ${costs.map(({ ms, checkpoint }) => `${ms.toFixed(0)}+${checkpoint.toFixed(0)}`).join(', ')}; with its checkpoint median ${median(totals).toFixed(0)}, rounds after the first ${median(totals.slice(1)).toFixed(0)}`,
        );
      }
    }
    for (const [appName, rawName] of [
      ['app: posting', 'raw: every row, +2'],
      ['app: posting', 'raw: its reads and every row, +2'],
      ['app: transfer', 'raw: transfer'],
      ['app: transfer back', 'raw: transfer back'],
    ] as const) {
      const app = steps[appName];
      const raw = steps[rawName];
      if (!app || !raw) continue;
      // Each of the app's against the raw changes of its own round: the same moment's load.
      const ratios = app.map((a, i) => (a.ms + a.checkpoint) / (raw[i]!.ms + raw[i]!.checkpoint));
      const later = ratios.filter((_, i) => i % ROUNDS !== 0);
      console.log(
        `  ${appName} ÷ ${rawName}, each round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}, rounds after each process's first ${median(later).toFixed(2)}`,
      );
    }
    if (STATEMENTS) {
      const rounds = PROCESSES * (ROUNDS - 1);
      const sorted = [...statements.ms].sort((a, b) => b[1] - a[1]);
      console.log(`  the postings' statements, CPU ms a posting (${rounds} postings):`);
      for (const [name, ms] of sorted.slice(0, 25))
        console.log(`    ${(ms / rounds).toFixed(1)}  ${name}`);
      statements.ms.clear();
      if (TRANSFER > 0) {
        const turns = PROCESSES * ROUNDS * 2;
        console.log(`  the transfers' statements, CPU ms a transfer (${turns} transfers):`);
        for (const [name, ms] of [...statements.transferMs]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25))
          console.log(`    ${(ms / turns).toFixed(1)}  ${name}`);
        statements.transferMs.clear();
      }
    }
    if (transfers.out.length > 0) {
      const both = [...transfers.out, ...transfers.back];
      console.log(
        `  transfer of ${TRANSFER} lines: median ${median(both).toFixed(0)} (${Math.min(...both).toFixed(0)}–${Math.max(...both).toFixed(0)})`,
      );
    }
    for (const [name, values] of Object.entries(reads)) {
      console.log(
        `  ${name}: ${values.map((ms) => ms.toFixed(2)).join(', ')} (each the median of ${READS} batches of ${BATCH})`,
      );
    }
  }
  console.log(
    `load ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
}

await main();

/**
 * `npm run bench`: the products API under autocannon on loopback, each figure next to a bare
 * node:http server answering a same-sized precomputed JSON body in the same run. The app is the
 * production build (`npm run build` first), started as `npm start` does. Prints a table and writes
 * it to bench/results.md. BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL. BENCH_ONLY=core
 * runs only the start-up and memory section and the list, single product and health rows (about a
 * minute instead of ten, for iterating) and writes its table to bench/results-core.md instead.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/infra/db/open.js';
import type { DatabaseHandle } from '../src/server/infra/db/handle.js';
import { SORT_ORDERS, encodeCursor } from '../src/server/features/products/cursor.js';
import { ProductRepository } from '../src/server/features/products/repository.js';
import { bulkLoad } from '../src/server/features/products/import-writes.js';
import {
  CONNECTIONS,
  ROUNDS,
  SECONDS,
  measure,
  measureDuring,
  type Figure,
  type Request,
} from './measure.js';
import { freshPostgresDatabase } from '../tests/server/support/build.js';
import {
  ADJUSTMENTS_PER_ROUND,
  importFile,
  measureAdjustments,
  measureExport,
  timedImport,
  type AdjustFigure,
  type ExportFigure,
} from './catalogue.js';
import { FANOUT_STREAMS, measureFanout, renderFanout } from './fanout.js';
import { peakRss } from './proc.js';
import { serverEnv, UNTHROTTLED } from './server-env.js';
import { measureReports, renderReports } from './reports.js';
import { seedReportCatalogue } from '../tests/server/support/report-seed.js';
import { WORST_QUERY, costliest, photo, products, seedUser } from './seed.js';
import {
  BUILT_SERVER,
  START_ARGS,
  START_COMMAND,
  compileBareServer,
  launch,
  measureStarts,
  stopProcess,
  type Server,
  type StartFigure,
} from './startup.js';
import { median } from './median.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Only the start-up, memory and per-request rows: what changes when the framework set-up does. */
const CORE_ONLY = process.env.BENCH_ONLY === 'core';
/**
 * Only the event stream's fan-out, on the server run from its sources (no build needed):
 * `BENCH_ONLY=fanout`, written to bench/results-fanout.md.
 */
const FANOUT_ONLY = process.env.BENCH_ONLY === 'fanout';
/**
 * Only the stock reports, on the server run from its sources: `BENCH_ONLY=reports`, written to
 * bench/results-reports.md (or -postgres.md).
 */
const REPORTS_ONLY = process.env.BENCH_ONLY === 'reports';

/** Products of the catalogue that is the costliest to search (see seed.ts). */
const COSTLIEST = 1_000;

/** Another request measured alone, then while the worst search runs (and that search's figure). */
interface Stall {
  label: string;
  alone: Figure;
  during: Figure;
  worst: Figure;
}

/** The catalogue operations: export, import, adjustments, filters and summary. */
interface Catalogue {
  exports: { label: string; figure: ExportFigure }[];
  importRows: number;
  importBytes: number;
  dryRunSeconds: number;
  importSeconds: number;
  adjustments: { label: string; figure: AdjustFigure }[];
  reads: Row[];
}

/** Clients adjusting stock at once. */
const ADJUST_CLIENTS = 32;
/** Rows of the import measured. */
const IMPORT_ROWS = 10_000;

/** Cold starts and memory of the production build next to the bare server's, in this run. */
interface Footprint {
  starts: { app: StartFigure; bare: StartFigure };
  /** Resident memory at the highest during the cached list's rounds. */
  listPeak: { app: number; bare: number; load: [number, number] };
}

interface Row {
  label: string;
  /** The answer measured, as the bare server sends it. */
  body?: string;
  app: Figure;
  bare?: Figure;
  /** The same request to the app with its response cache off. */
  uncached?: Figure;
  bytes: number;
}

/** Starts a bench server script in its own process and waits for the port it listens on. */
function start(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = fork(path.join(here, script), args, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    child.once('message', (message: { port: number }) =>
      resolve({ child, url: `http://127.0.0.1:${message.port}` }),
    );
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** The bare server, with the bodies it answers per path. */
interface Yardstick extends Server {
  bodies: Record<string, string>;
}

/** One request to a server and to the bare one, measured in alternating rounds. */
async function measurePair(
  label: string,
  [server, appPath]: [Server, string],
  [bare, barePath]: [Yardstick, string],
  request: Request,
): Promise<Row> {
  console.log(`measuring ${label}…`);
  const [app, yardstick] = await measure([
    { url: server.url + appPath, request, pid: server.child.pid },
    { url: bare.url + barePath, request, pid: bare.child.pid },
  ]);
  const body = bare.bodies[barePath]!;
  return { label, app: app!, bare: yardstick, body, bytes: Buffer.byteLength(body) };
}

/**
 * The section `BENCH_ONLY=core` runs alone: the production build's cold starts and memory, then the
 * cached list, a single product and the health route, each beside the bare server answering the
 * same bytes. `moreBodies` gives the bare server the answers of the app's other measured requests.
 */
async function measureCore(
  appEnv: NodeJS.ProcessEnv,
  token: string,
  dataDir: string,
  children: ChildProcess[],
  moreBodies: (appUrl: string) => Promise<Record<string, string>> = async () => ({}),
) {
  const app = await launch([...START_ARGS], appEnv);
  children.push(app.child);
  const auth = { authorization: `Bearer ${token}` };
  const listPath = '/api/products?limit=50';
  const listBody = await (await fetch(app.url + listPath, { headers: auth })).text();
  const itemId = (JSON.parse(listBody) as { products: { id: string }[] }).products[0]!.id;
  const itemPath = `/api/products/${itemId}`;
  const itemBody = await (await fetch(app.url + itemPath, { headers: auth })).text();
  const healthBody = await (await fetch(app.url + '/api/health')).text();

  // The yardstick answers the same bytes as the app, per path, after reading the same request.
  const bodies: Record<string, string> = {
    '/list': listBody,
    '/item': itemBody,
    '/health': healthBody,
    ...(await moreBodies(app.url)),
  };
  const bodiesFile = path.join(dataDir, 'bare-bodies.json');
  await writeFile(bodiesFile, JSON.stringify(bodies));
  const bareScript = await compileBareServer(dataDir);
  const bare: Yardstick = { ...(await launch([bareScript, bodiesFile], {}, '/health')), bodies };
  children.push(bare.child);

  // Cold starts: the bare server and the app's build in turns, each timed to its first 200 on
  // the list (the app's with a token), then left idle to read its memory.
  console.log('measuring cold starts…');
  const [bareStart, appStart] = await measureStarts([
    { args: [bareScript, bodiesFile], env: {}, path: '/list', headers: {} },
    { args: [...START_ARGS], env: appEnv, path: listPath, headers: auth },
  ]);

  // The server's code paths are compiled by the JIT during the first seconds of load: a longer
  // warm-up of the read path before the first figure keeps it out of the measurement.
  await autocannon({ url: app.url + listPath, headers: auth, duration: 3 });

  const peakLoad = os.loadavg()[0]!;
  const { result: list, peaks } = await peakRss([app.child.pid!, bare.child.pid!], () =>
    measurePair(`GET ${listPath} (1,000 products)`, [app, listPath], [bare, '/list'], {
      headers: auth,
    }),
  );
  const footprint: Footprint = {
    starts: { app: appStart!, bare: bareStart! },
    listPeak: { app: peaks[0]!, bare: peaks[1]!, load: [peakLoad, os.loadavg()[0]!] },
  };
  const rows: Row[] = [
    list,
    await measurePair('GET /api/products/{id}', [app, itemPath], [bare, '/item'], {
      headers: auth,
    }),
    // The framework's own ceiling on this machine: no token, no database, a tiny body.
    await measurePair(
      'reference: GET /api/health (no auth, no database)',
      [app, '/api/health'],
      [bare, '/health'],
      {},
    ),
  ];
  return { app, bare, rows, footprint, listPath };
}

/** The cursor a client would hold after reading half of a catalogue in the given order. */
async function middleCursor(
  database: DatabaseHandle,
  ownerId: string,
  sort: 'newest' | 'price-asc',
) {
  const { column, direction } = SORT_ORDERS[sort];
  const row = await database.db
    .selectFrom('products')
    .select((eb) => ['id', eb.ref(column).as('key')])
    .where('catalogue_id', '=', ownerId)
    .orderBy(column, direction)
    .orderBy('id', direction)
    .offset(50_000)
    .limit(1)
    .executeTakeFirstOrThrow();
  return encodeCursor(sort, { key: row.key, id: row.id });
}

async function main() {
  if (!FANOUT_ONLY && !REPORTS_ONLY && !existsSync(BUILT_SERVER)) {
    throw new Error('no production build: run `npm run build` first');
  }
  const started = Date.now();
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-'));
  // On PostgreSQL when asked (a fresh database, dropped afterwards), else SQLite in DATA_DIR.
  const postgres = process.env.BENCH_DATABASE_URL
    ? await freshPostgresDatabase(process.env.BENCH_DATABASE_URL)
    : undefined;
  const env = serverEnv(dataDir, postgres?.url);
  const children: ChildProcess[] = [];
  try {
    // Seeding goes through the data layer, not HTTP: batched INSERTs in transactions.
    const database = await openDatabase(loadConfig(env));
    const repository = new ProductRepository(database.db, database.dialect);
    const seedStart = Date.now();
    const main = await seedUser(database.db, 'main@bench.test');
    const small = await seedUser(database.db, 'small@bench.test');
    const large = await seedUser(database.db, 'large@bench.test');
    const hostile = await seedUser(database.db, 'hostile@bench.test');
    const stocker = await seedUser(database.db, 'stock@bench.test');
    const importers = [];
    for (let i = 0; i <= ROUNDS; i += 1) {
      importers.push(await seedUser(database.db, `import-${i}@bench.test`));
    }
    await bulkLoad(database, main.id, products(1_000));
    // The production build, as `npm start` runs it.
    const appEnv = {
      ...env,
      ...UNTHROTTLED,
      // The fan-out row opens all its streams as one user.
      LIVE_STREAMS_PER_USER: String(FANOUT_STREAMS),
    };
    if (FANOUT_ONLY) {
      const [product] = (await repository.list(main.id, { sort: 'newest', limit: 1 })).rows;
      await database.close();
      const source = path.join(here, '../src/server/index.ts');
      const server = await launch(['--import', 'tsx', source], appEnv);
      children.push(server.child);
      const figure = await measureFanout(server.url, server.child.pid!, main.token, product!.id);
      const engine = database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)';
      const report = `${renderFanout(figure)}\n${engine}; run ${new Date().toISOString()}, load before ${loadBefore}.\n`;
      console.log(`\n${report}`);
      const file = postgres ? 'results-fanout-postgres.md' : 'results-fanout.md';
      await writeFile(path.join(here, file), report);
      console.log(`written to bench/${file}`);
      return;
    }
    if (REPORTS_ONLY) {
      const seeded = await seedReportCatalogue(database, small.id, Date.now());
      console.log(`seeded ${seeded.products} products, ${seeded.movements} movements`);
      await database.close();
      const source = path.join(here, '../src/server/index.ts');
      const server = await launch(['--import', 'tsx', source], appEnv);
      children.push(server.child);
      const figures = await measureReports(server.url, small.token);
      const engine = database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)';
      const note = `${engine}; run ${new Date().toISOString()}, load before ${loadBefore}.`;
      const report = renderReports(figures, note);
      console.log(`\n${report}`);
      const file = postgres ? 'results-reports-postgres.md' : 'results-reports.md';
      await writeFile(path.join(here, file), report);
      console.log(`written to bench/${file}`);
      return;
    }
    if (CORE_ONLY) {
      await database.close();
      const { rows, footprint } = await measureCore(appEnv, main.token, dataDir, children);
      const report = renderCore(rows, footprint, {
        engine: database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)',
        totalSeconds: (Date.now() - started) / 1000,
        loadBefore,
      });
      console.log(`\n${report}`);
      const file = process.env.BENCH_DATABASE_URL ? 'results-core-postgres.md' : 'results-core.md';
      await writeFile(path.join(here, file), report);
      console.log(`written to bench/${file}`);
      return;
    }
    await bulkLoad(database, small.id, products(100));
    await bulkLoad(database, large.id, products(100_000));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    console.log(`seeded 101,100 products in ${seedSeconds.toFixed(1)} s`);
    await bulkLoad(database, hostile.id, costliest(COSTLIEST));
    await bulkLoad(database, stocker.id, products(1_000));
    const stockIds = (await repository.list(stocker.id, { sort: 'newest', limit: 1_000 })).rows.map(
      (row) => row.id,
    );
    // Autovacuum analyzes the table (and empties the search index's pending list) within a minute
    // of such a load on PostgreSQL; the bench measures that steady state, not the minute before.
    if (database.dialect === 'postgres') await sql`vacuum analyze products`.execute(database.db);
    // Cursors to the middle of the large catalogue, read straight from the table.
    const middle = {
      newest: await middleCursor(database, large.id, 'newest'),
      'price-asc': await middleCursor(database, large.id, 'price-asc'),
    };
    await database.close();

    // The same app without its response cache: every read runs its query, as the first read
    // after a write does.
    const uncached = await start('app-server.ts', [], { ...env, BENCH_RESPONSE_CACHE: 'off' });
    children.push(uncached.child);
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });

    const form = new FormData();
    form.append('name', 'Benchmark lamp');
    form.append('price', '19.99');
    form.append('stock', '5');
    form.append('description', 'Made during the benchmark');
    const jpeg = await photo();
    form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
    // Encoded once by Node's FormData, as fetch would send it; autocannon replays the bytes.
    const encoded = new globalThis.Request('http://localhost/', { method: 'POST', body: form });
    const upload: Request = {
      method: 'POST',
      headers: { ...auth(main.token), 'content-type': encoded.headers.get('content-type')! },
      body: Buffer.from(await encoded.arrayBuffer()),
    };
    const { app, bare, rows, footprint, listPath } = await measureCore(
      appEnv,
      main.token,
      dataDir,
      children,
      async (appUrl) => {
        const created = await fetch(appUrl + '/api/products', {
          method: 'POST',
          headers: upload.headers,
          body: new Uint8Array(upload.body!),
        });
        if (created.status !== 201) throw new Error(`upload failed: ${await created.text()}`);
        return { '/create': await created.text() };
      },
    );
    rows.push(
      await measurePair(
        `GET ${listPath}, response cache off (the query runs every time)`,
        [uncached, listPath],
        [bare, '/list'],
        { headers: auth(main.token) },
      ),
      await measurePair(
        'POST /api/products (1 MP JPEG, multipart)',
        [app, '/api/products'],
        [bare, '/create'],
        upload,
      ),
    );

    // The same page at 100 and at 100,000 products, and deep inside the large catalogue.
    const scale: Row[] = [];
    const pages: { label: string; token: string; query: string }[] = [];
    pages.push(
      { label: '100 products, first page (limit=50)', token: small.token, query: 'limit=50' },
      { label: '100,000 products, first page (limit=50)', token: large.token, query: 'limit=50' },
      {
        label: '100,000 products, page 1,000 of 2,000 (cursor)',
        token: large.token,
        query: `limit=50&cursor=${middle.newest}`,
      },
      {
        label: '100,000 products, sort=price-asc, middle page',
        token: large.token,
        query: `limit=50&sort=price-asc&cursor=${middle['price-asc']}`,
      },
    );
    console.log('measuring the list at 100 and 100,000 products…');
    const targets = [app.url, uncached.url].flatMap((base) =>
      pages.map(({ token, query }) => ({
        url: `${base}/api/products?${query}`,
        request: { headers: auth(token) },
      })),
    );
    const figures = await measure(targets);
    for (const [i, page] of pages.entries()) {
      const { url, request } = targets[i]!;
      const bytes = Buffer.byteLength(await (await fetch(url, request)).text());
      scale.push({
        label: page.label,
        app: figures[i]!,
        uncached: figures[i + pages.length]!,
        bytes,
      });
    }

    // Searches: ordinary ones next to the worst case (ADR 007), cached and queried.
    const q = (text: string) => `limit=50&q=${encodeURIComponent(text)}`;
    const searches = [
      {
        label: '`q=lamp`, 1,000 products (a page of matches)',
        token: main.token,
        query: q('lamp'),
      },
      {
        label: '`q=reference 99999`, 100,000 products (one match, found by the trigram index)',
        token: large.token,
        query: q('reference 99999'),
      },
      {
        label: '`q=zz`, 100,000 products (too short for trigrams, no match: every row read)',
        token: large.token,
        query: q('zz'),
      },
      {
        label: `worst case: 199 letters that ${fmt(COSTLIEST)} of the costliest products all nearly hold`,
        token: hostile.token,
        query: q(WORST_QUERY),
      },
    ];
    console.log('measuring searches…');
    const searchTargets = [app.url, uncached.url].flatMap((base) =>
      searches.map(({ token, query }) => ({
        url: `${base}/api/products?${query}`,
        request: { headers: auth(token) },
      })),
    );
    const searchFigures = await measure(searchTargets);
    const search: Row[] = [];
    for (const [i, { label }] of searches.entries()) {
      const { url, request } = searchTargets[i]!;
      const bytes = Buffer.byteLength(await (await fetch(url, request)).text());
      search.push({
        label,
        app: searchFigures[i]!,
        uncached: searchFigures[i + searches.length]!,
        bytes,
      });
    }
    // Everybody else while the worst search keeps the (uncached) server busy.
    console.log('measuring other requests during the worst search…');
    const worst = searchTargets[searches.length * 2 - 1]!;
    const others = [
      { label: 'GET /api/health', url: `${uncached.url}/api/health`, request: {} },
      {
        label: `GET ${listPath} (1,000 products)`,
        url: uncached.url + listPath,
        request: { headers: auth(main.token) },
      },
    ];
    const during: Stall[] = [];
    for (const other of others) {
      const [alone] = await measure([other]);
      const { target, load } = await measureDuring(other, worst);
      during.push({ label: other.label, alone: alone!, during: target, worst: load });
    }

    console.log('measuring the catalogue operations…');
    const catalogue = await measureCatalogue({
      app: app.url,
      uncached: uncached.url,
      pid: app.child.pid!,
      small: small.token,
      large: large.token,
      stocker: stocker.token,
      stockIds,
      importers: importers.map((importer) => importer.token),
    });

    console.log('measuring the event stream fan-out…');
    const fanout = await measureFanout(app.url, app.child.pid!, stocker.token, stockIds[0]!);

    const report = render(rows, footprint, scale, search, during, catalogue, {
      engine: database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)',
      seedSeconds,
      totalSeconds: (Date.now() - started) / 1000,
      photoBytes: jpeg.length,
      loadBefore,
    });
    const full = `${report}\n${renderFanout(fanout)}`;
    console.log(`\n${full}`);
    const file = process.env.BENCH_DATABASE_URL ? 'results-postgres.md' : 'results.md';
    await writeFile(path.join(here, file), full);
    console.log(`written to bench/${file}`);
  } finally {
    for (const child of children) await stopProcess(child);
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;

/** Export, import, adjustments, and the filtered list and summary at 100,000 products. */
async function measureCatalogue(on: {
  app: string;
  uncached: string;
  pid: number;
  small: string;
  large: string;
  stocker: string;
  stockIds: string[];
  importers: string[];
}): Promise<Catalogue> {
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const exportUrl = `${on.app}/api/products/export.csv`;
  const exports = [
    { label: '100 products', figure: await measureExport(exportUrl, on.small, on.pid) },
    { label: '100,000 products', figure: await measureExport(exportUrl, on.large, on.pid) },
  ];

  const file = importFile(IMPORT_ROWS);
  const importUrl = `${on.app}/api/products/import`;
  const [dry, ...real] = on.importers;
  const dryRuns: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    dryRuns.push(await timedImport(`${importUrl}?dryRun=true`, dry!, file, IMPORT_ROWS));
  }
  const imports: number[] = [];
  for (const token of real) imports.push(await timedImport(importUrl, token, file, IMPORT_ROWS));

  // The stock user's units, from the summary (read from the database: the cache is keyed by
  // the catalogue version, which every adjustment moves).
  const units = async () => {
    const res = await fetch(`${on.app}/api/products/summary`, { headers: auth(on.stocker) });
    return ((await res.json()) as { units: number }).units;
  };
  const adjustments = [
    {
      label: `${ADJUST_CLIENTS} clients on one product (every request waits for the same row)`,
      figure: await measureAdjustments(
        on.app,
        on.stocker,
        on.stockIds.slice(0, 1),
        ADJUST_CLIENTS,
        units,
      ),
    },
    {
      label: `${ADJUST_CLIENTS} clients over ${fmt(on.stockIds.length)} products`,
      figure: await measureAdjustments(on.app, on.stocker, on.stockIds, ADJUST_CLIENTS, units),
    },
  ];

  const readTargets = [
    {
      label: '`GET /api/products?stock=low&limit=50`, 100,000 products (4,000 low)',
      path: '/api/products?stock=low&limit=50',
    },
    {
      label: '`GET /api/products?stock=out&sort=name&limit=50`, 100,000 products (400 out)',
      path: '/api/products?stock=out&sort=name&limit=50',
    },
    {
      label: '`GET /api/products/summary`, 100 products',
      path: '/api/products/summary',
      token: on.small,
    },
    { label: '`GET /api/products/summary`, 100,000 products', path: '/api/products/summary' },
    {
      label: '`GET /api/products/lookup?code=BC-50` (a barcode), 100 products',
      path: '/api/products/lookup?code=BC-50',
      token: on.small,
    },
    {
      label: '`GET /api/products/lookup?code=BC-50000` (a barcode), 100,000 products',
      path: '/api/products/lookup?code=BC-50000',
    },
    {
      label:
        '`GET /api/products/lookup?code=sku-50000` (a SKU, after the barcode probe), 100,000 products',
      path: '/api/products/lookup?code=sku-50000',
    },
    {
      label: '`GET /api/products/summary?stock=low`, 100,000 products',
      path: '/api/products/summary?stock=low',
    },
  ];
  const targets = [on.app, on.uncached].flatMap((base) =>
    readTargets.map(({ path, token }) => ({
      url: base + path,
      request: { headers: auth(token ?? on.large) },
    })),
  );
  const figures = await measure(targets);
  const reads: Row[] = [];
  for (const [i, { label }] of readTargets.entries()) {
    const { url, request } = targets[i]!;
    const bytes = Buffer.byteLength(await (await fetch(url, request)).text());
    reads.push({ label, app: figures[i]!, uncached: figures[i + readTargets.length]!, bytes });
  }
  return {
    exports,
    importRows: IMPORT_ROWS,
    importBytes: file.length,
    dryRunSeconds: median(dryRuns),
    importSeconds: median(imports),
    adjustments,
    reads,
  };
}

const mb = (bytes: number) => `${fmt(bytes / (1024 * 1024), 1)} MB`;

/** The load average around a figure: "3.1 → 4.2". */
const loadOf = ([start, end]: [number, number]) => `${fmt(start, 1)} → ${fmt(end, 1)}`;
const percent = (part: number, whole: number) => `${fmt((100 * part) / whole, 1)} %`;
const mib = (bytes: number) => `${fmt(bytes / (1024 * 1024), 1)} MiB`;

/** Why the list carries each field of a product. */
const LIST_FIELDS: Record<string, string> = {
  id: "the product's address for its page, edits and stock changes",
  name: "the card's title",
  price: 'shown on the card',
  stock: 'shown on the card',
  description: "the card's text",
  image:
    "the full picture's URL, part of every product in the API; the list screens show only the thumbnail",
  thumbnail: 'the picture the card shows',
  sku: "the table view's code column (null when none)",
  barcode: 'under the SKU in the table view (null when none)',
  tags: "the card's chips and the tag filter",
};

/** Each field of the page's products with its bytes a product (the mean) and why it is there. */
function describeFields(body: string) {
  const { products } = JSON.parse(body) as { products: Record<string, unknown>[] };
  const names = Object.keys(products[0] ?? {});
  return names
    .map((name) => {
      const bytes =
        products.reduce(
          (sum, product) => sum + JSON.stringify({ [name]: product[name] }).length - 1,
          0,
        ) / products.length;
      return `\`${name}\` ${fmt(bytes)} B (${LIST_FIELDS[name] ?? 'no reason recorded'})`;
    })
    .join(', ');
}

/** Start-up and memory of the production build next to the bare server's. */
function renderFootprint({ starts, listPeak }: Footprint, listRow: Row) {
  const { app, bare } = starts;
  return [
    `## Start-up and memory of the production build (\`${START_COMMAND}\`)`,
    '',
    `Each server started ${2 * ROUNDS - 1} times, in turns with the other, from \`spawn\` to its first 200 on the list (the app's with a bearer token, its database and migrations checked first); the median. CPU: the process's user + system time by then. Idle: its resident memory (VmRSS) ${3} s after that answer. Peak: the highest resident memory during the rounds of the cached list below (VmHWM, reset before).`,
    '',
    '| figure | bare node:http | app | app − bare | load average |',
    '|---|---:|---:|---:|---:|',
    `| cold start to the first (authenticated) 200 | ${fmt(bare.ms)} ms | **${fmt(app.ms)} ms** | ${fmt(app.ms - bare.ms)} ms | ${loadOf(app.load)} |`,
    `| CPU time by then | ${fmt(bare.cpuMs)} ms | **${fmt(app.cpuMs)} ms** | ${fmt(app.cpuMs - bare.cpuMs)} ms | ${loadOf(app.load)} |`,
    `| idle RSS | ${mib(bare.idleRss)} | **${mib(app.idleRss)}** | ${mib(app.idleRss - bare.idleRss)} | ${loadOf(app.load)} |`,
    `| peak RSS under \`GET /api/products?limit=50\` | ${mib(listPeak.bare)} | **${mib(listPeak.app)}** | ${mib(listPeak.app - listPeak.bare)} | ${loadOf(listPeak.load)} |`,
    '',
    `The list page is ${kb(listRow.bytes)} for 50 products (uncompressed; the app sends it with brotli or gzip when asked), ${fmt(listRow.bytes / 50)} bytes a product. Each field is there because the card or the table view shows or needs it; bytes a product, as \`"name":value,\` in this page: ${describeFields(listRow.body ?? '{}')}. The detail fields (image size, dates, \`active\`, cost) are left to \`GET /api/products/{id}\`.`,
    '',
  ];
}

/** The run's conditions: machine, load, niceness and how the app was started. */
function renderIntro(info: { engine: string; loadBefore: string }) {
  return [
    '# Products API benchmark',
    '',
    `Run: ${new Date().toISOString()} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'} · Node ${process.version} · ${info.engine}`,
    `autocannon on loopback, ${CONNECTIONS} connections; each figure is the median of ${ROUNDS} rounds of ${SECONDS} s, alternating with the figures it is compared with, after a 1 s warm-up. The app and the bare server each run in their own process.`,
    `Load average of the machine (other work included) at the start and at the end: ${info.loadBefore} and ${os.loadavg()[0]!.toFixed(1)}.`,
    `Niceness of the bench and of the servers it starts: ${os.getPriority()} (work at a lower niceness gets the CPU first, so under load wall times stretch; CPU times do not).`,
    `The app runs as in production, from its build, started as \`npm start\` starts it (\`${START_COMMAND}\`, NODE_ENV=production, LOG_LEVEL=warn): the bearer-token check, rate limiting and zod validation of the request on every call. While the database is unchanged, sessions and product answers come from memory (ADR 006); the rows marked "response cache off" and the "query" columns show reads that go to the database (that server runs from the sources, bench/app-server.ts, which can switch the cache off).`,
  ];
}

/** The app's requests beside the bare server's, measured in the same run. */
function renderComparison(rows: Row[]) {
  return [
    '## Against a bare node:http server answering the same bytes',
    '',
    'Requests per CPU second: the requests of a round over the CPU time of the server process (user + system, from /proc/<pid>/stat) during it, the median of the rounds. Other work on the machine slows a round down but hardly changes what each request costs the server, so this ratio is the one to compare between runs; req/s follows the load. Both servers are measured in the same run, in alternating rounds.',
    '',
    '| endpoint | body | app req/s | app p50 / p99 (ms) | bare req/s | bare p50 / p99 (ms) | app ÷ bare (req/s) | app req per CPU s | bare req per CPU s | app ÷ bare (per CPU s) | load average |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ label, app, bare, bytes }) =>
        `| ${label} | ${kb(bytes)} | ${fmt(app.rps)} | ${app.p50} / ${app.p99} | ${fmt(bare!.rps)} | ${bare!.p50} / ${bare!.p99} | ${percent(app.rps, bare!.rps)} | ${fmt(app.perCpuSecond ?? 0)} | ${fmt(bare!.perCpuSecond ?? 0)} | **${percent(app.perCpuSecond ?? 0, bare!.perCpuSecond ?? 1)}** | ${loadOf([app.load[0], bare!.load[1]])} |`,
    ),
    '',
    'The reference row is the framework alone (routing, hooks, CORS, headers) answering a tiny body: the least any endpoint of this app costs on this machine.',
    '',
  ];
}

/** The report of `BENCH_ONLY=core`. */
function renderCore(
  rows: Row[],
  footprint: Footprint,
  info: { engine: string; totalSeconds: number; loadBefore: string },
) {
  return [
    ...renderIntro(info),
    `Only the start-up, memory and per-request section (BENCH_ONLY=core): 1,000 products seeded; the whole run ${fmt(info.totalSeconds)} s.`,
    '',
    ...renderFootprint(footprint, rows[0]!),
    ...renderComparison(rows),
  ].join('\n');
}

function render(
  rows: Row[],
  footprint: Footprint,
  scale: Row[],
  search: Row[],
  during: Stall[],
  catalogue: Catalogue,
  info: {
    engine: string;
    seedSeconds: number;
    totalSeconds: number;
    photoBytes: number;
    loadBefore: string;
  },
) {
  const lines = [
    ...renderIntro(info),
    `Seeding 101,100 products through the data layer took ${fmt(info.seedSeconds, 1)} s; the whole bench ${fmt(info.totalSeconds)} s.`,
    '',
    ...renderFootprint(footprint, rows[0]!),
    ...renderComparison(rows),
    `The upload is a ${kb(info.photoBytes)} JPEG of 1155 × 866 px; each one is decoded, re-encoded to WebP with a thumbnail and written to disk (fsync) before the row is inserted. The bare server reads the same upload and answers without doing anything with it.`,
    '',
    '## The list at 100 and at 100,000 products (keyset pagination on the (owner, key, id) indexes)',
    '',
    'Cached: a repeated read, answered from the bytes kept for the catalogue version. Query: the same app with its response cache off, so the page is read from the database and serialised on every request, as the first read after a write is.',
    '',
    '| catalogue and page | body | cached req/s | cached p50 / p99 (ms) | query req/s | query p50 / p99 (ms) |',
    '|---|---:|---:|---:|---:|---:|',
    ...scale.map(
      ({ label, app, uncached, bytes }) =>
        `| ${label} | ${kb(bytes)} | ${fmt(app.rps)} | ${app.p50} / ${app.p99} | ${fmt(uncached!.rps)} | ${uncached!.p50} / ${uncached!.p99} |`,
    ),
    '',
    '## Search (ADR 007)',
    '',
    `Ordinary searches next to the costliest one we know: ${fmt(COSTLIEST)} products whose descriptions fold to the longest searchable text (10,000 letters of 3 bytes), all holding every trigram of a 199-letter query and none holding the query, so every row is checked in full. On SQLite a search runs as statements of at most 100 rows each, one at a time across all searches, with a turn of the event loop between them. Columns as in the table above.`,
    '',
    '| search | body | cached req/s | cached p50 / p99 (ms) | query req/s | query p50 / p99 (ms) |',
    '|---|---:|---:|---:|---:|---:|',
    ...search.map(
      ({ label, app, uncached, bytes }) =>
        `| ${label} | ${kb(bytes)} | ${fmt(app.rps)} | ${app.p50} / ${app.p99} | ${fmt(uncached!.rps)} | ${uncached!.p50} / ${uncached!.p99} |`,
    ),
    '',
    `Other requests to the same server (response cache off), alone and while ${CONNECTIONS} more connections run the worst-case search without pause:`,
    '',
    '| request | alone req/s | alone p50 / p99 / max (ms) | during req/s | during p50 / p99 / max (ms) | worst search meanwhile req/s, p99 (ms) |',
    '|---|---:|---:|---:|---:|---:|',
    ...during.map(
      ({ label, alone, during: d, worst }) =>
        `| ${label} | ${fmt(alone.rps)} | ${alone.p50} / ${alone.p99} / ${alone.max} | ${fmt(d.rps)} | ${d.p50} / ${d.p99} / ${d.max} | ${fmt(worst.rps, 1)}, ${worst.p99} |`,
    ),
    '',
    '## Catalogue operations',
    '',
    `CSV export: the whole catalogue downloaded ${ROUNDS} times by a client that reads it as it comes and keeps nothing (time: the median). The server reads it from the database ${fmt(500)} rows at a time, only as the client takes them; its resident memory (RSS, from /proc) before the first download and at its highest during any of them:`,
    '',
    '| catalogue | rows | CSV | seconds | rows/s | server RSS before | server RSS peak |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...catalogue.exports.map(
      ({ label, figure: f }) =>
        `| ${label} | ${fmt(f.rows)} | ${mb(f.bytes)} | ${fmt(f.seconds, 2)} | **${fmt(f.rowsPerSecond)}** | ${mb(f.rssBefore)} | **${mb(f.rssPeak)}** |`,
    ),
    '',
    `CSV import of ${fmt(catalogue.importRows)} rows (${mb(catalogue.importBytes)}, multipart, each row checked with the shared product schema), median of ${ROUNDS}: a dry run takes **${fmt(catalogue.dryRunSeconds, 2)} s**; the import, which also creates the ${fmt(catalogue.importRows)} products and their movements in one transaction, **${fmt(catalogue.importSeconds, 2)} s**.`,
    '',
    `Stock adjustments (\`POST /api/products/{id}/stock\` with \`{"delta":1}\`): ${ADJUST_CLIENTS} connections without pause, ${ROUNDS} rounds of ${fmt(ADJUSTMENTS_PER_ROUND)} requests (median). Each is one transaction: the conditional UPDATE, the movement, the catalogue version, committed (SQLite: \`synchronous = FULL\`, so one fsync each). Afterwards the stock had moved by exactly the number of answers:`,
    '',
    '| clients | adjustments/s | p50 / p99 (ms) | answers | units moved |',
    '|---|---:|---:|---:|---:|',
    ...catalogue.adjustments.map(
      ({ label, figure: f }) =>
        `| ${label} | **${fmt(f.rps)}** | ${f.p50} / ${f.p99} | ${fmt(f.answers)} | ${fmt(f.moved)} |`,
    ),
    '',
    'Stock filters (partial indexes, migration 011), the summary (one statement) and code lookups (unique index probes, migration 014), at 100,000 products; columns as in the list table:',
    '',
    '| request | body | cached req/s | cached p50 / p99 (ms) | query req/s | query p50 / p99 (ms) |',
    '|---|---:|---:|---:|---:|---:|',
    ...catalogue.reads.map(
      ({ label, app, uncached, bytes }) =>
        `| ${label} | ${kb(bytes)} | ${fmt(app.rps)} | ${app.p50} / ${app.p99} | ${fmt(uncached!.rps)} | ${uncached!.p50} / ${uncached!.p99} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

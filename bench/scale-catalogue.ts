/**
 * Every request of `npm run bench:scale` against one seeded catalogue: the list in every sort and
 * filter, search, lookup, one product, activity, the writes (create, stock change, edit, undo),
 * the summary after a change, the reports; then, when asked, the export and the imports.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SORT_ORDERS } from '../src/server/features/products/cursor.js';
import { importFile } from './catalogue.js';
import { measureShelfCount } from './scale-counts.js';
import { settle } from './scale-cpu.js';
import { binCode, WAREHOUSES } from './scale-locations.js';
import { rawAppInsertRate, rawExport, rawInsertRate } from './scale-yardsticks.js';
import {
  costOf,
  firstProducts,
  measureRounds,
  pageLimit,
  placesOf,
  send,
  MAX_ROUNDS,
  type Client,
  type Cost,
  type Product,
} from './scale-requests.js';
import { median } from './median.js';

/** The per-request rows: label → cost. */
export type Costs = Map<string, Cost>;

/** The to-reorder report's page: fewer than the smallest catalogue has due. */
const REORDER_PAGE = 30;

/** Each request, rounds of it, on the catalogue the client's token opens. */
export async function measureRequests(client: Client): Promise<Costs> {
  const costs: Costs = new Map();
  const products = await firstProducts(client, MOVE_LINES + 100);
  const [stocked, edited, read] = [0, 1, 2].map((set) =>
    products.slice(set * MAX_ROUNDS, (set + 1) * MAX_ROUNDS),
  ) as [Product[], Product[], Product[]];
  const measure = async (label: string, request: (round: number) => Promise<unknown>) => {
    console.log(`  ${label}…`);
    costs.set(label, await measureRounds(client, request));
  };
  const get = (path: string) => send(client, 'GET', path);

  for (const sort of Object.keys(SORT_ORDERS)) {
    await measure(`list, sort=${sort}`, (round) =>
      get(`/api/products?sort=${sort}&limit=${pageLimit(round)}`),
    );
  }
  await measure('list, low stock (stock=low)', (round) =>
    get(`/api/products?stock=low&limit=${pageLimit(round)}`),
  );
  for (const sort of Object.keys(SORT_ORDERS)) {
    await measure(`list to reorder, sort=${sort}`, (round) =>
      get(`/api/products?stock=reorder&sort=${sort}&limit=${pageLimit(round)}`),
    );
  }
  await measure('search, a few matches (q=00042)', (round) =>
    get(`/api/products?q=00042&limit=${pageLimit(round)}`),
  );
  await measure('search, every product matches (q=seeded)', (round) =>
    get(`/api/products?q=seeded&limit=${pageLimit(round)}`),
  );
  await measure('one product', (round) => get(`/api/products/${read[round]!.id}`));
  await measure('activity', (round) => get(`/api/products/activity?limit=${pageLimit(round)}`));
  await measure('create', (round) =>
    send(client, 'POST', '/api/products', {
      name: `Bench created ${round}`,
      price: 9.99,
      stock: 5,
      description: 'Created by the benchmark',
      sku: `BENCH-${round}`,
      barcode: `BENCH-${round}`,
    }),
  );
  await measure('lookup (barcode)', (round) => get(`/api/products/lookup?code=BENCH-${round}`));

  // A stock change, then the summary it changed: two rows from the same rounds.
  console.log('  stock change, summary after it…');
  await settle(client.cpu);
  const change: Cost[] = [];
  const summary: Cost[] = [];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const path = `/api/products/${stocked[round]!.id}/stock`;
    const changed = await costOf(client, () => send(client, 'POST', path, { delta: 1 }));
    const summed = await costOf(client, () => get('/api/products/summary'));
    if (round < 2) continue;
    change.push(changed);
    summary.push(summed);
  }
  costs.set('stock change', medianCost(change));
  costs.set('summary after a change', medianCost(summary));

  await measure('edit', (round) =>
    send(client, 'PATCH', `/api/products/${edited[round]!.id}`, { name: `Edited ${round}` }),
  );
  const entries = (
    (await get(`/api/products/activity?kind=stock.moved&limit=100`)) as {
      entries: { id: string; product: { id: string } | null }[];
    }
  ).entries.filter((entry) => stocked.some((product) => product.id === entry.product?.id));
  await measure('undo (a stock change)', (round) =>
    send(client, 'POST', `/api/products/activity/${entries[round]!.id}/undo`, {}),
  );
  await measureLocations(client, costs, products, measure);
  await measureShelfCount(client, costs, measure);
  // A page every size fills (the 1,000-product catalogue has 37 products due, the larger ones
  // thousands): the default page of 100 held 37 rows at 1,000 and 100 beyond, so it grew with the
  // answer, not the catalogue. Reports keep no answer, so the same page is measured each round.
  await measure(`to-reorder (a page of ${REORDER_PAGE})`, () =>
    get(`/api/products/reports/to-reorder?limit=${REORDER_PAGE}`),
  );
  await measure('stock-over-time, 365 days', () =>
    get('/api/products/reports/stock-over-time?days=365'),
  );
  await measure('top-movers, 365 days', () => get('/api/products/reports/top-movers?days=365'));
  return costs;
}

/** Lines of the largest move: as many as a transfer takes. */
const MOVE_LINES = 500;

/**
 * The rows of a catalogue with 10,000 locations and stock in 3 places per product
 * (scale-locations.ts): the tree, the list and the summary of a bin and of a warehouse, a
 * location's code looked up, and moves of one line and of 500.
 */
async function measureLocations(
  client: Client,
  costs: Costs,
  products: Product[],
  measure: (label: string, request: (round: number) => Promise<unknown>) => Promise<void>,
) {
  const get = (path: string) => send(client, 'GET', path);
  const { locations } = (await get('/api/locations')) as {
    locations: { id: string; code: string }[];
  };
  const byCode = new Map(locations.map((location) => [location.code, location.id]));
  const bin = byCode.get(binCode(3, 4, 5))!;
  const warehouse = byCode.get('WH-3')!;
  await measure('location tree (10,000 locations)', () => get('/api/locations'));
  await measure('list of a bin (location=, 10,000 locations)', (round) =>
    get(`/api/products?location=${bin}&limit=${pageLimit(round)}`),
  );
  await measure('list of a warehouse (location=)', (round) =>
    get(`/api/products?location=${warehouse}&limit=${pageLimit(round)}`),
  );
  await measure('lookup (a location code)', (round) =>
    get(`/api/products/lookup?code=${binCode(round % WAREHOUSES, 2, round)}`),
  );
  // Each round moves a unit of another product from a place holding it to a bin.
  const to = byCode.get(binCode(0, 0, 0))!;
  const moves = await placesOf(client, products, MAX_ROUNDS, to);
  await measure('move (a transfer of one unit)', (round) =>
    send(client, 'POST', '/api/stock/transfers', { ...moves[round]!, to, quantity: 1 }),
  );
  // The first product moved holds a unit in `to` now: it goes to the bin and back in turns.
  const moved = { productId: moves[0]!.productId, from: to };
  for (const [name, cost] of await measureSummaries(client, moved, { bin, warehouse })) {
    costs.set(name, cost);
  }
  // 500 products, a unit each, into another bin and back in turns.
  const far = byCode.get(binCode(WAREHOUSES - 1, 9, 97))!;
  const many = await placesOf(client, products, MOVE_LINES, far);
  if (many.length < MOVE_LINES) console.warn(`  only ${many.length} products to move`);
  await measure(`move (a transfer of ${MOVE_LINES} lines)`, (round) =>
    send(client, 'POST', '/api/stock/transfers', {
      lines: many.map(({ productId, from }) =>
        round % 2 === 0
          ? { productId, from, to: far, quantity: 1 }
          : { productId, from: far, to: from, quantity: 1 },
      ),
    }),
  );
}

/**
 * The summary above a location's list, of a bin and of a warehouse, each after a move of one unit
 * (not measured): the server keeps an answer until its catalogue changes.
 */
async function measureSummaries(
  client: Client,
  { productId, from }: { productId: string; from: string },
  places: { bin: string; warehouse: string },
) {
  let turn = 0;
  const move = () => {
    turn += 1;
    const [a, b] = turn % 2 === 1 ? [from, places.bin] : [places.bin, from];
    return send(client, 'POST', '/api/stock/transfers', { productId, from: a, to: b, quantity: 1 });
  };
  const measured: [string, Cost][] = [];
  for (const [name, id] of Object.entries(places)) {
    const label = `summary of a ${name} (location=)`;
    console.log(`  ${label}…`);
    await settle(client.cpu);
    const rounds: Cost[] = [];
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      await move();
      const path = `/api/products/summary?location=${id}`;
      const cost = await costOf(client, () => send(client, 'GET', path));
      if (round >= 2) rounds.push(cost);
    }
    measured.push([label, medianCost(rounds)]);
  }
  return measured;
}

function medianCost(costs: Cost[]): Cost {
  return {
    cpuMs: median(costs.map((cost) => cost.cpuMs)),
    wallMs: median(costs.map((cost) => cost.wallMs)),
  };
}

export interface ExportCost {
  bytes: number;
  rows: number;
  seconds: number;
  cpuSeconds: number;
  rawSeconds: number;
  /** Whether the raw bytes are the export's, byte for byte. */
  same: boolean;
}

/** The whole export.csv, three times (the median), beside the raw read of the same rows. */
export async function measureExport(
  client: Client,
  catalogueId: string,
  database: Parameters<typeof rawExport>[0],
): Promise<ExportCost> {
  console.log('  export.csv…');
  const runs = [];
  let body = '';
  for (let round = 0; round < 3; round += 1) {
    const cost = await costOf(client, async () => {
      body = (await send(client, 'GET', '/api/products/export.csv')) as string;
    });
    const raw = await rawExport(database, catalogueId);
    runs.push({ ...cost, raw });
  }
  runs.sort((a, b) => a.wallMs - b.wallMs);
  const { wallMs, cpuMs, raw } = runs[1]!;
  const exported = Buffer.from(`\ufeff${body}`);
  return {
    bytes: exported.length,
    rows: body.split('\r\n').length - 2,
    seconds: wallMs / 1000,
    cpuSeconds: cpuMs / 1000,
    rawSeconds: [...runs].sort((a, b) => a.raw.seconds - b.raw.seconds)[1]!.raw.seconds,
    same: raw.bytes.equals(exported),
  };
}

export interface ImportCosts {
  reimport: Cost;
  /** Every existing row re-imported (at most 50,000), their stock changed. */
  reimportAll: Cost & { rows: number };
  newRowsPerSecond: number;
  newCpuSeconds: number;
  rawRowsPerSecond: number;
  /** Raw prepared inserts of the same rows into the app's own products table. */
  rawAppRowsPerSecond: number;
  /** Another user's stock changes while every existing row was re-imported: wall ms. */
  reimportBystander: Waits;
  /** Another user's stock changes, one after another, while the new import ran: wall ms. */
  bystander: Waits;
}

/** Wall ms of another user's stock changes sent every 50 ms (changesBeside). */
export interface Waits {
  p50: number;
  p99: number;
  max: number;
  count: number;
  failed: number;
}

/** Posts a CSV file to the import, and checks what it reports. */
async function postImport(client: Client, csv: Buffer, check: (report: object) => boolean) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'products.csv');
  const res = await fetch(`${client.url}/api/products/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}` },
    body: form,
  });
  const report = (await res.json()) as object;
  if (res.status !== 200 || !check(report)) {
    throw new Error(`import: ${res.status} ${JSON.stringify(report).slice(0, 300)}`);
  }
}

/** A CSV file of these products by id, each one's stock one more. */
function reimportFile(existing: Product[]) {
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const lines = ['id,name,price,stock,description'];
  for (const p of existing) {
    lines.push([p.id, quote(p.name), p.price.toFixed(2), p.stock + 1, quote(p.description)].join());
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const reimported = (count: number) => (report: object) =>
  (report as { updated?: number }).updated === count;

/**
 * Stock changes of another user's product until `done()`, one sent every 50 ms whether or not the
 * ones before were answered (one after another, a change held up for seconds would be a single
 * sample): the wall ms of each.
 */
export async function changesBeside(bystander: Client, done: () => boolean) {
  const { product } = (await send(bystander, 'POST', '/api/products', {
    name: 'Bystander',
    price: 1,
    stock: 5,
    description: 'Changed while an import runs',
  })) as { product: { id: string } };
  const waits: number[] = [];
  const sent: Promise<void>[] = [];
  let failed = 0;
  while (!done()) {
    const started = performance.now();
    const path = `/api/products/${product.id}/stock`;
    // A change refused or dropped (too many waiting) counts with the time it took, and as failed.
    const settle = (ok: boolean) => {
      waits.push(performance.now() - started);
      if (!ok) failed += 1;
    };
    sent.push(
      send(bystander, 'POST', path, { delta: 1 }).then(
        () => settle(true),
        () => settle(false),
      ),
    );
    await sleep(50);
  }
  await Promise.all(sent);
  return { waits, failed };
}

/**
 * Re-importing 1,000 existing rows, then every existing row (at most 50,000), their stock
 * changed; then a new 50,000-row import while another user (`bystander`) changes a stock.
 */
export async function measureImports(client: Client, bystander: Client): Promise<ImportCosts> {
  console.log('  re-import of 1,000 existing rows…');
  const some = await firstProducts(client, 1_000);
  const reimport = await costOf(client, () =>
    postImport(client, reimportFile(some), reimported(some.length)),
  );
  // Read again: the stocks the first re-import changed.
  const existing = await firstProducts(client, 50_000);
  console.log(`  re-import of ${existing.length} existing rows…`);
  let reimporting = true;
  const besideReimport = changesBeside(bystander, () => !reimporting);
  const all = await costOf(client, () =>
    postImport(client, reimportFile(existing), reimported(existing.length)),
  ).finally(() => (reimporting = false));
  const reimportBystander = waitsOf(await besideReimport);
  console.log('  new 50,000-row import…');
  const file = importFile(50_000);
  let done = false;
  const beside = changesBeside(bystander, () => done);
  const fresh = await costOf(client, () =>
    postImport(client, file, (report) => (report as { created?: number }).created === 50_000),
  ).finally(() => (done = true));
  // Before the raw inserts below, which hold this process's event loop for a second or more
  // (synchronous SQLite): the changes still in flight would be timed across that hold.
  const newImportBystander = waitsOf(await beside);
  return {
    reimport,
    reimportAll: { ...all, rows: existing.length },
    reimportBystander,
    newRowsPerSecond: 50_000 / (fresh.wallMs / 1000),
    newCpuSeconds: fresh.cpuMs / 1000,
    rawRowsPerSecond: await rawInsertRate(50_000),
    rawAppRowsPerSecond: await rawAppInsertRate(50_000),
    bystander: newImportBystander,
  };
}

/** The percentiles of another user's waits (changesBeside). */
export function waitsOf({ waits, failed }: { waits: number[]; failed: number }): Waits {
  waits.sort((a, b) => a - b);
  const at = (p: number) => waits[Math.min(waits.length - 1, Math.ceil(p * waits.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: waits.at(-1)!, count: waits.length, failed };
}

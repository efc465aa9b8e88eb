/**
 * `npm run bench:scale-beside`: what a catalogue's requests cost beside another tenant's large
 * catalogue, against the same catalogue alone, compared in alternating rounds. Two servers of the
 * production build (`npm run build` first) run at once, each on a fresh database of the engine
 * (BENCH_BESIDE_ENGINE, default sqlite): one holds a catalogue of BENCH_BESIDE_SMALL products
 * (default 1,000) alone, the other the same beside another tenant's BENCH_BESIDE_LARGE (default
 * 100,000), seeded as `npm run bench:scale` seeds. On PostgreSQL a third serves a copy of the
 * second without migration 054's index of stock rows by catalogue: what the index saves its reads
 * and costs its writes. Each round sends every request to each server in turn (the order turning
 * each round), each after the servers fell idle, so that a loaded machine weighs on both alike.
 * An idle span of 10 ms is costed as a request is: what background work adds to a row.
 * Writes bench/results-scale-beside-<date>-<engine>-<small>-<large>.md.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuReader, settle, type CpuReader } from './scale-cpu.js';
import { binCode, WAREHOUSES } from './scale-locations.js';
import {
  costOf,
  firstProducts,
  pageLimit,
  placesOf,
  send,
  type Client,
  type Cost,
  type Product,
} from './scale-requests.js';
import { freshDatabase, seedCatalogue } from './scale-seed.js';
import { count, ms, tableHead } from './scale-table.js';
import { BUILT_SERVER, START_ARGS, launch, stopProcess } from './startup.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ENGINE = process.env.BENCH_BESIDE_ENGINE ?? 'sqlite';
const SMALL = Number(process.env.BENCH_BESIDE_SMALL ?? 1_000);
const LARGE = Number(process.env.BENCH_BESIDE_LARGE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_BESIDE_ROUNDS ?? 15);
const WARM_UPS = 2;
/** Lines of the large transfer: as many as a transfer takes. */
const MOVE_LINES = 500;
/** Migration 054's index, left out of the third server's copy. */
const INDEX_054 = 'stock_levels_catalogue_location';

interface Side {
  name: string;
  client: Client & { cpu: CpuReader };
  /** The requests, by label, for this side's catalogue. */
  requests: [string, (round: number) => Promise<unknown>][];
}

/** The requests of one catalogue: reads, writes, its places' lists and summaries, moves. */
async function requestsOf(client: Client): Promise<Side['requests']> {
  const get = (url: string) => send(client, 'GET', url);
  const products = await firstProducts(client, MOVE_LINES + 100);
  const rounds = WARM_UPS + ROUNDS;
  const [stocked, read] = [products.slice(0, rounds), products.slice(rounds, 2 * rounds)] as [
    Product[],
    Product[],
  ];
  const { locations } = (await get('/api/locations')) as {
    locations: { id: string; code: string }[];
  };
  const byCode = new Map(locations.map((location) => [location.code, location.id]));
  const bin = byCode.get(binCode(3, 4, 5))!;
  const warehouse = byCode.get('WH-3')!;
  // A unit goes to a bin and back in turns; 500 products, a unit each, to another and back.
  const to = byCode.get(binCode(0, 0, 0))!;
  const [one] = await placesOf(client, products, 1, to);
  const far = byCode.get(binCode(WAREHOUSES - 1, 9, 97))!;
  const many = await placesOf(client, products, MOVE_LINES, far);
  const turn = <T>(round: number, there: T, back: T) => (round % 2 === 0 ? there : back);
  return [
    ['idle (no request, 10 ms)', () => sleep(10)],
    ['list, sort=newest', (round) => get(`/api/products?sort=newest&limit=${pageLimit(round)}`)],
    [
      'list, sort=stock-asc',
      (round) => get(`/api/products?sort=stock-asc&limit=${pageLimit(round)}`),
    ],
    [
      'list, low stock (stock=low)',
      (round) => get(`/api/products?stock=low&limit=${pageLimit(round)}`),
    ],
    [
      'list to reorder, sort=newest',
      (round) => get(`/api/products?stock=reorder&limit=${pageLimit(round)}`),
    ],
    [
      'search, a few matches (q=00042)',
      (round) => get(`/api/products?q=00042&limit=${pageLimit(round)}`),
    ],
    ['one product', (round) => get(`/api/products/${read[round]!.id}`)],
    ['activity', (round) => get(`/api/products/activity?limit=${pageLimit(round)}`)],
    [
      'stock change',
      (round) => send(client, 'POST', `/api/products/${stocked[round]!.id}/stock`, { delta: 1 }),
    ],
    ['summary after a change', () => get('/api/products/summary')],
    [
      'list of a bin (location=)',
      (round) => get(`/api/products?location=${bin}&limit=${pageLimit(round)}`),
    ],
    [
      'list of a warehouse (location=)',
      (round) => get(`/api/products?location=${warehouse}&limit=${pageLimit(round)}`),
    ],
    [
      'move (a transfer of one unit)',
      (round) =>
        send(client, 'POST', '/api/stock/transfers', {
          productId: one!.productId,
          ...turn(round, { from: one!.from, to }, { from: to, to: one!.from }),
          quantity: 1,
        }),
    ],
    [
      'summary of a warehouse (location=)',
      () => get(`/api/products/summary?location=${warehouse}`),
    ],
    [
      `move (a transfer of ${MOVE_LINES} lines)`,
      (round) =>
        send(client, 'POST', '/api/stock/transfers', {
          lines: many.map(({ productId, from }) => ({
            productId,
            ...turn(round, { from, to: far }, { from: far, to: from }),
            quantity: 1,
          })),
        }),
    ],
    ['summary of a bin (location=)', () => get(`/api/products/summary?location=${bin}`)],
  ];
}

/** A server on a database of its own, its catalogue's client and requests. */
async function start(name: string, env: NodeJS.ProcessEnv, token: string, postgresUrl?: string) {
  const server = await launch([...START_ARGS], env);
  const cpu = await cpuReader(server.child.pid!, postgresUrl);
  const client = { url: server.url, cpu, token };
  const side: Side = { name, client, requests: await requestsOf(client) };
  return {
    side,
    stop: async () => {
      await cpu.close();
      await stopProcess(server.child);
    },
  };
}

/** The database `url` without migration 054's index, its statistics fresh. */
async function dropIndex054(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop index ${INDEX_054}`);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/** The database name in a PostgreSQL URL: the template of a copy. */
const databaseName = (url: string) => new URL(url).pathname.slice(1);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function main() {
  if (!existsSync(BUILT_SERVER)) throw new Error('no production build: run `npm run build` first');
  const started = Date.now();
  const loadBefore = os.loadavg().map((load) => load.toFixed(1));
  const alone = await freshDatabase(ENGINE);
  const beside = await freshDatabase(ENGINE);
  const dropped: { drop: () => Promise<void> }[] = [alone, beside];
  const stops: (() => Promise<void>)[] = [];
  try {
    console.log(`${ENGINE}: seeding ${count(SMALL)} alone…`);
    const small = await seedCatalogue(alone.env, 'scale@bench.test', SMALL);
    console.log(`${ENGINE}: seeding ${count(LARGE)}, then ${count(SMALL)} beside it…`);
    await seedCatalogue(beside.env, 'large@bench.test', LARGE);
    const next = await seedCatalogue(beside.env, 'scale@bench.test', SMALL);
    const url = (database: typeof alone) =>
      'postgresUrl' in database.raw ? database.raw.postgresUrl : undefined;
    const sides: Side[] = [];
    for (const [name, database, token] of [
      ['alone', alone, small.user.token],
      ['beside', beside, next.user.token],
    ] as const) {
      const server = await start(name, database.env, token, url(database));
      stops.push(server.stop);
      sides.push(server.side);
    }
    if (ENGINE === 'postgres') {
      // A copy of the database beside, made while no server holds it open, less the index.
      await stops.pop()!();
      sides.pop();
      const copy = await freshDatabase(ENGINE, databaseName(url(beside)!));
      dropped.push(copy);
      await dropIndex054(url(copy)!);
      for (const [name, database] of [
        ['beside', beside],
        ['beside, without 054', copy],
      ] as const) {
        const server = await start(name, database.env, next.user.token, url(database));
        stops.push(server.stop);
        sides.push(server.side);
      }
    }
    const costs = new Map<string, Cost[][]>();
    for (let round = 0; round < WARM_UPS + ROUNDS; round += 1) {
      console.log(`round ${round + 1} of ${WARM_UPS + ROUNDS}…`);
      const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
      for (const [index, [label]] of sides[0]!.requests.entries()) {
        const row = costs.get(label) ?? sides.map(() => []);
        costs.set(label, row);
        for (const side of order) {
          await settle(side.client.cpu);
          const cost = await costOf(side.client, () => side.requests[index]![1](round));
          if (round >= WARM_UPS) row[sides.indexOf(side)]!.push(cost);
        }
      }
    }
    const report = render(sides, costs, {
      minutes: (Date.now() - started) / 60_000,
      loadBefore: loadBefore.join(', '),
      loadAfter: os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(', '),
    });
    console.log(`\n${report}`);
    const day = new Date().toISOString().slice(0, 10);
    const name = `results-scale-beside-${day}-${ENGINE}-${SMALL}-${LARGE}.md`;
    await writeFile(path.join(here, name), report);
    console.log(`written to bench/${name}`);
  } finally {
    for (const stop of stops) await stop();
    for (const database of dropped) await database.drop();
  }
}

/** A cell: the median CPU ms (its quartiles), then the median wall ms. */
function cell(costs: Cost[]) {
  const cpu = costs.map((cost) => cost.cpuMs);
  const wall = quantile(
    costs.map((cost) => cost.wallMs),
    0.5,
  );
  return `**${ms(quantile(cpu, 0.5))}** (${ms(quantile(cpu, 0.25))}–${ms(quantile(cpu, 0.75))}) / ${ms(wall)}`;
}

/** The median of the rounds' ratios, each round's cost of `side` over its cost alone. */
function ratio(row: Cost[][], side: number) {
  // The idle span uses next to nothing on either side: no ratio.
  if (row[0]!.some((cost) => cost.cpuMs <= 0)) return '—';
  const ratios = row[side]!.map((cost, round) => cost.cpuMs / row[0]![round]!.cpuMs);
  return `${quantile(ratios, 0.5).toFixed(2)} (${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)})`;
}

function render(
  sides: Side[],
  costs: Map<string, Cost[][]>,
  run: { minutes: number; loadBefore: string; loadAfter: string },
) {
  const engine = ENGINE === 'postgres' ? 'PostgreSQL' : 'SQLite (WAL)';
  const header = [
    'request',
    ...sides.map((side) => (side.name === 'alone' ? `${count(SMALL)} alone` : side.name)),
    ...sides.slice(1).map((side) => `${side.name} ÷ alone`),
  ];
  const lines = [
    `# A catalogue beside another tenant's (\`npm run bench:scale-beside\`), ${engine}`,
    '',
    `Run ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ')[0] ?? 'CPU'}, Node ${process.version}, in ${run.minutes.toFixed(1)} min, ${ROUNDS} rounds after ${WARM_UPS} warm-ups. Load average (1, 5, 15 min) before: ${run.loadBefore}; after: ${run.loadAfter}.`,
    '',
    `${count(SMALL)} products alone, against the same catalogue beside another tenant's ${count(LARGE)}${ENGINE === 'postgres' ? ', and beside it without migration 054’s index (a copy of that database, the index dropped, analysed)' : ''}: every request to each server in turn, each once the servers were idle. CPU ms per request of the server${ENGINE === 'postgres' ? ' and its connections’ backends' : ''} (each thread from /proc), median (quartiles), then the median wall ms; ratios are each round's CPU over the same round's alone, median (quartiles).`,
    '',
    ...tableHead(header),
  ];
  for (const [label, row] of costs) {
    const cells = [...row.map(cell), ...sides.slice(1).map((_, i) => ratio(row, i + 1))];
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

await main();

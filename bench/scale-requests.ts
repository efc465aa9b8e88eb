/**
 * The requests of `npm run bench:scale`, one at a time against one catalogue of a running server,
 * each costed as the CPU time of the processes serving it (the server's threads, and on
 * PostgreSQL its connections' backends, from /proc) and the wall time the client waited: the
 * median of the rounds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMsBetween, settle, type CpuReading } from './scale-cpu.js';

/** What one request costs: medians of the rounds, in milliseconds. */
export interface Cost {
  cpuMs: number;
  wallMs: number;
}

/** Rounds of each cheap request (reads and single writes) after two warm-ups. */
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 15);
const WARM_UPS = 2;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export interface Client {
  url: string;
  /** CPU nanoseconds used so far by each thread of the processes serving requests (scale-cpu.ts). */
  cpu: () => Promise<CpuReading>;
  token: string;
}

/** Sends a request and reads its whole answer; fails on any status but `expected`. */
export async function send(
  client: Client,
  method: string,
  path: string,
  body?: unknown,
  expected = [200, 201],
): Promise<unknown> {
  const res = await fetch(client.url + path, {
    method,
    headers: {
      authorization: `Bearer ${client.token}`,
      'accept-encoding': 'br, gzip',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) {
    throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  }
  return res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
}

/**
 * The CPU and wall time of one call of `work`, the server otherwise idle. A thread or process that
 * started meanwhile (a database connection opened) counts whole; one that ended is not counted.
 */
export async function costOf(client: Client, work: () => Promise<unknown>) {
  const before = await client.cpu();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  // What the server does after the answer left (its onResponse hooks) belongs to this request.
  await sleep(2);
  return { cpuMs: cpuMsBetween(before, await client.cpu()), wallMs };
}

/**
 * `request(round)` WARM_UPS times, then ROUNDS times measured: the medians. Starts once the
 * server is idle: what the rows before left it to do in the background is theirs.
 */
export async function measureRounds(
  client: Client,
  request: (round: number) => Promise<unknown>,
  rounds = ROUNDS,
): Promise<Cost> {
  await settle(client.cpu);
  for (let round = 0; round < WARM_UPS; round += 1) await request(round);
  // And what the warm-ups left: the first top movers of a day moves the catalogue's windows on,
  // and the checkpoint of that write (a thread of the server) ran through the measured rounds.
  await settle(client.cpu);
  const costs = [];
  for (let round = WARM_UPS; round < WARM_UPS + rounds; round += 1) {
    costs.push(await costOf(client, () => request(round)));
  }
  return {
    cpuMs: median(costs.map((cost) => cost.cpuMs)),
    wallMs: median(costs.map((cost) => cost.wallMs)),
  };
}

/** Rounds a request may use at most (the reads vary `limit` so that none is served from memory). */
export const MAX_ROUNDS = WARM_UPS + ROUNDS;

/**
 * A page size that differs in every round: the server keeps answers per catalogue version and
 * query, and what is measured here is the query, not the copy kept in memory.
 */
export const pageLimit = (round: number) => 50 - (round % 30);

export interface Product {
  id: string;
  name: string;
  price: number;
  stock: number;
  description: string;
}
interface Page {
  products: Product[];
  nextCursor: string | null;
}

/** The products of the catalogue's first `count` list rows (newest first). */
export async function firstProducts(client: Client, count: number) {
  const found: Product[] = [];
  let cursor: string | null = null;
  while (found.length < count) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = (await send(client, 'GET', `/api/products?limit=100${query}`)) as Page;
    found.push(...page.products);
    if (!(cursor = page.nextCursor)) break;
  }
  return found.slice(0, count);
}

/** Where each of these products has stock (the single-product read), up to `count` of them. */
export async function placesOf(
  client: Client,
  products: Product[],
  count: number,
  besides: string,
) {
  const found: { productId: string; from: string }[] = [];
  for (const product of products) {
    if (found.length === count) break;
    const { product: read } = (await send(client, 'GET', `/api/products/${product.id}`)) as {
      product: { locations: { locationId: string; quantity: number }[] };
    };
    const from = read.locations.find((place) => place.locationId !== besides && place.quantity > 0);
    if (from) found.push({ productId: product.id, from: from.locationId });
  }
  return found;
}

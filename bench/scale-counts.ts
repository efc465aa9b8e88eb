/**
 * The count screens' requests in `npm run bench:scale`. Per request, on a count of the same size
 * in every catalogue (a shelf holding one unit each of SHELF_HELD products, SHELF_LINES lines
 * counted there): the list of counts, the count with its first page of lines, the review page,
 * counting a line, posting. Catalogue-wide, on a count of the whole catalogue seeded with
 * WIDE_LINES lines (`seedWideCount`): its CSV, its sheet PDF, its review page and its posting.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle, DB } from '../src/server/infra/db/handle.js';
import {
  costOf,
  firstProducts,
  placesOf,
  send,
  MAX_ROUNDS,
  type Client,
  type Cost,
} from './scale-requests.js';
import { median } from './median.js';

/** Lines of the count whose requests are measured one by one: the same at every size. */
const SHELF_LINES = 1_000;
/** Products the counted shelf holds a unit of (the rest of its lines find what was not expected). */
const SHELF_HELD = 300;
/** Lines of the catalogue-wide count. */
const WIDE_LINES = 10_000;
/** Postings of the shelf's count measured, each undone before the next. */
const POSTINGS = 3;
/** Lines counted at once while the shelf's count is filled (not measured). */
const FILLERS = 4;

/** Runs `work` over the items, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** The newest `count.posted` entry's id: what undoes the posting. */
async function lastPosting(client: Client) {
  const { entries } = (await send(
    client,
    'GET',
    '/api/products/activity?kind=count.posted&limit=1',
  )) as { entries: { id: string }[] };
  return entries[0]!.id;
}

/**
 * The rows of a count of SHELF_LINES lines over one shelf: the same count in every catalogue,
 * so that each row is expected to stay flat as the catalogue grows.
 */
export async function measureShelfCount(
  client: Client,
  costs: Map<string, Cost>,
  measure: (label: string, request: (round: number) => Promise<unknown>) => Promise<void>,
) {
  console.log('  counts: a shelf of one unit each, a count of it…');
  const products = await firstProducts(client, SHELF_LINES);
  if (products.length < SHELF_LINES) throw new Error(`only ${products.length} products to count`);
  const { location } = (await send(client, 'POST', '/api/locations', {
    name: 'Counted shelf',
    parentId: null,
    code: 'COUNTED-SHELF',
  })) as { location: { id: string } };
  const shelf = location.id;
  const held = await placesOf(client, products, SHELF_HELD, shelf);
  await send(client, 'POST', '/api/stock/transfers', {
    lines: held.map(({ productId, from }) => ({ productId, from, to: shelf, quantity: 1 })),
  });
  const { count } = (await send(client, 'POST', '/api/counts', {
    scope: { kind: 'location', locationId: shelf },
  })) as { count: { id: string } };
  const base = `/api/counts/${count.id}`;
  const countLine = (productId: string) =>
    send(client, 'POST', `${base}/lines`, { productId, locationId: shelf, counted: 2 });
  // Every line but the last rounds' counted first: each measured round counts a new line of a
  // count of almost SHELF_LINES lines.
  const filled = products.slice(0, SHELF_LINES - MAX_ROUNDS);
  await inParallel(filled, FILLERS, (product) => countLine(product.id));
  const last = products.slice(SHELF_LINES - MAX_ROUNDS);
  await measure(
    `count: count a line (a count of ${SHELF_LINES.toLocaleString('en-US')})`,
    (round) => countLine(last[round]!.id),
  );
  await measure('counts: the list', () => send(client, 'GET', '/api/counts'));
  await measure('count: the count, its first 500 lines, open', () => send(client, 'GET', base));
  await send(client, 'POST', `${base}/review`);
  await measure('count: review page (variances, never counted)', () => send(client, 'GET', base));
  // Posting, then its undo (the count back in review) before the next.
  const label = `count: post (${SHELF_LINES.toLocaleString('en-US')} lines)`;
  console.log(`  ${label}…`);
  const postings: Cost[] = [];
  for (let round = 0; round < POSTINGS; round += 1) {
    if (round > 0) {
      await send(client, 'POST', `/api/products/activity/${await lastPosting(client)}/undo`, {});
    }
    postings.push(await costOf(client, () => send(client, 'POST', `${base}/post`, {})));
  }
  costs.set(label, {
    cpuMs: median(postings.map((cost) => cost.cpuMs)),
    wallMs: median(postings.map((cost) => cost.wallMs)),
  });
}

/**
 * A count of the whole catalogue with WIDE_LINES lines, seeded through the data layer as if
 * counted (what is measured is its files and its posting, not the counting): the places holding
 * stock first, each found one more or one fewer, then products found where none was expected.
 */
export async function seedWideCount({ db }: DatabaseHandle, catalogueId: string, userId: string) {
  const now = Date.now();
  const countId = randomUUID();
  await db
    .insertInto('counts')
    .values({
      id: countId,
      catalogue_id: catalogueId,
      name: 'Count of the whole catalogue',
      scope_kind: 'catalogue',
      scope_location_id: null,
      scope_tag: null,
      scope_key: 'catalogue',
      blind: 0,
      status: 'open',
      created_by: userId,
      created_at: now,
      updated_at: now,
      posted_at: null,
      lines: WIDE_LINES,
    })
    .execute();
  const levels = await db
    .selectFrom('stock_levels')
    .select(['product_id', 'location_id', 'quantity'])
    .where('catalogue_id', '=', catalogueId)
    .where('quantity', '>', 0)
    .orderBy('product_id')
    .orderBy('location_id')
    .limit(WIDE_LINES)
    .execute();
  const lines = levels.map((level, i) => ({
    product: level.product_id,
    location: level.location_id,
    expected: level.quantity,
    counted: Math.max(0, level.quantity + (i % 2 === 0 ? 1 : -1)),
  }));
  if (lines.length < WIDE_LINES) {
    const seen = new Set(lines.map((line) => `${line.product} ${line.location}`));
    const products = await db
      .selectFrom('products')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .execute();
    const places = await db
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .execute();
    for (let i = 0; lines.length < WIDE_LINES; i += 1) {
      const product = products[i % products.length]!.id;
      const location = places[(i * 7919) % places.length]!.id;
      if (seen.has(`${product} ${location}`)) continue;
      seen.add(`${product} ${location}`);
      lines.push({ product, location, expected: 0, counted: 1 });
    }
  }
  await insertCountLines(db, { countId, catalogueId, userId, at: now }, lines);
}

/** A count's lines written straight to its table, 500 a statement, as if counted by `userId`. */
export async function insertCountLines(
  db: DB,
  count: { countId: string; catalogueId: string; userId: string; at: number },
  lines: { product: string; location: string; expected: number; counted: number }[],
) {
  for (let i = 0; i < lines.length; i += 500) {
    await db
      .insertInto('count_lines')
      .values(
        lines.slice(i, i + 500).map((line) => ({
          count_id: count.countId,
          product_id: line.product,
          location_id: line.location,
          catalogue_id: count.catalogueId,
          expected: line.expected,
          counted: line.counted,
          counted_by: count.userId,
          counted_at: count.at,
        })),
      )
      .execute();
  }
}

export interface WideCountCost {
  lines: number;
  review: Cost;
  csv: Cost & { bytes: number; rows: number };
  sheet: Cost & { bytes: number };
  post: Cost & { movements: number };
}

/** The catalogue-wide count's review page, CSV, sheet and posting, each once. */
export async function measureWideCount(client: Client): Promise<WideCountCost> {
  const { counts } = (await send(client, 'GET', '/api/counts')) as {
    counts: { id: string; scope: { kind: string }; status: string; lines: number }[];
  };
  const wide = counts.find((count) => count.scope.kind === 'catalogue' && count.status === 'open');
  if (!wide) throw new Error('no catalogue-wide count seeded');
  const base = `/api/counts/${wide.id}`;
  console.log(`  catalogue-wide count of ${wide.lines} lines: review page, CSV, sheet, post…`);
  const review = await costOf(client, () => send(client, 'GET', base));
  let csv = '';
  const csvCost = await costOf(client, async () => {
    csv = (await send(client, 'GET', `${base}.csv`)) as string;
  });
  let pdfBytes = 0;
  const sheetCost = await costOf(client, async () => {
    const res = await fetch(`${client.url}${base}/sheet.pdf`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    if (res.status !== 200) throw new Error(`sheet.pdf: ${res.status}`);
    pdfBytes = (await res.arrayBuffer()).byteLength;
  });
  let movements = 0;
  const postCost = await costOf(client, async () => {
    const posted = (await send(client, 'POST', `${base}/post`, {})) as { movements: number };
    movements = posted.movements;
  });
  return {
    lines: wide.lines,
    review,
    csv: { ...csvCost, bytes: Buffer.byteLength(csv), rows: csv.split('\r\n').length - 2 },
    sheet: { ...sheetCost, bytes: pdfBytes },
    post: { ...postCost, movements },
  };
}

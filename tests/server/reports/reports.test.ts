import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_HEADER } from '../../../src/server/http/request-clock-offset.js';
import { roleCannot } from '../../../src/shared/catalogue-roles.js';
import { build } from '../support/build.js';
import { adjustStock, createProduct } from '../support/products.js';
import {
  CATALOGUE_NOT_FOUND,
  createProductIn,
  person,
  send,
  type Person,
} from '../catalogues/catalogue-world.js';
import { catalogueWith } from '../catalogues/fixtures.js';
import { deadStock, readRaw, stockOverTime, toReorder, topMovers } from './recompute.js';

const DAY = 86_400_000;
const BOM = '\uFEFF';

/** Money as the CSV writes it: two decimals (a total beyond a double's cents is already that text). */
const asCsvMoney = (value: number | string) =>
  typeof value === 'number' ? value.toFixed(2) : value;

/**
 * The reports of a small catalogue whose history is made through the real write paths (creates,
 * adjustments, counts, edits) over 200 days of a manual clock: every figure of every report equals
 * a recomputation in plain TypeScript from the raw product and movement rows.
 */
describe('stock reports', async () => {
  const server = await build();
  const { clock } = server;
  const owner = await person(server, 'Report owner');
  /** The owner, acting `days` before now (the server's clock stays; sessions stay valid). */
  const ago = (days: number): Person => {
    const headers = { ...owner.headers } as Person['headers'] & Record<string, string>;
    headers[CLOCK_OFFSET_HEADER] = String(Math.round(-days * DAY));
    return { ...owner, headers };
  };

  const must = async (res: { statusCode: number; body: string }) => {
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  };
  const shelf = await createProduct(server, ago(110), {
    name: 'Old shelf',
    price: '3.10',
    stock: '50',
  });
  const lamp = await createProduct(server, ago(110), {
    name: 'Desk lamp',
    price: '19.99',
    stock: '12',
    sku: 'LAMP-1',
    barcode: '4006381333931',
    cost: '7.25',
  });
  const formula = await createProduct(server, ago(110), {
    name: '=SUM(A1)',
    price: '0.05',
    stock: '5',
  });
  const chair = await createProduct(server, ago(110), {
    name: 'Chair',
    price: '45.00',
    stock: '3',
  });
  await must(await adjustStock(server, ago(95), lamp.id, { delta: 8 }));
  await must(await adjustStock(server, ago(95), chair.id, { count: 30 }));
  await must(await adjustStock(server, ago(40), lamp.id, { delta: -15 }));
  await must(await adjustStock(server, ago(40), chair.id, { delta: -2 }));
  await createProduct(server, ago(40), { name: 'New mug', price: '4.50', stock: '2' });
  await must(await adjustStock(server, ago(1), formula.id, { delta: 7 }));
  await must(await adjustStock(server, ago(1), lamp.id, { delta: -1 }));
  await must(await adjustStock(server, ago(1), chair.id, { count: 11 }));
  await must(await adjustStock(server, ago(0.1), lamp.id, { delta: -2 }));
  // A reorder point of its own (the catalogue's is 10): the shelf's 50 units are at it.
  await server.database.db
    .updateTable('products')
    .set({ reorder_point: 50 })
    .where('id', '=', shelf.id)
    .execute();

  const get = async (who: Person, url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: who.headers });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  };
  const json = async (who: Person, url: string) => {
    const res = await get(who, url);
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body) as unknown;
  };
  const csvRecords = (body: string) => {
    expect(body.startsWith(BOM)).toBe(true);
    return parse(body.slice(BOM.length)) as string[][];
  };

  it('gives the stock at the end of each day, oldest first, as the movements rebuild it', async () => {
    const raw = await readRaw(server.database.db, owner.id);
    for (const days of [30, 90, 365]) {
      const answer = (await json(owner, `/api/products/reports/stock-over-time?days=${days}`)) as {
        days: { date: string }[];
      };
      expect(answer).toEqual(stockOverTime(raw, clock.now(), days));
      expect(answer.days).toHaveLength(days);
      expect(answer.days.at(-1)!.date).toBe(new Date(clock.now()).toISOString().slice(0, 10));
    }
    // 30 days unless told.
    expect(await json(owner, '/api/products/reports/stock-over-time')).toEqual(
      stockOverTime(raw, clock.now(), 30),
    );
    // Values at today's prices, exact to the cent: 12 lamps at 19.99 a day before their last move.
    const { days } = (await json(owner, '/api/products/reports/stock-over-time?days=30')) as {
      days: { units: number; value: number }[];
    };
    expect(days.at(-1)).toMatchObject({ units: 50 + 2 + 12 + 11 + 2 });
    // 50 × 3.10 + 2 × 19.99 + 12 × 0.05 + 11 × 45 + 2 × 4.50, to the cent.
    expect(days.at(-1)!.value).toBe(699.58);
  });

  it('lists the top movers, units in and out, the most moved first', async () => {
    const raw = await readRaw(server.database.db, owner.id);
    for (const days of [30, 90, 365]) {
      for (const limit of [1, 2, 10]) {
        const url = `/api/products/reports/top-movers?days=${days}&limit=${limit}`;
        expect(await json(owner, url)).toEqual(topMovers(raw, clock.now(), days, limit));
      }
    }
    const { products } = (await json(owner, '/api/products/reports/top-movers?days=90')) as {
      products: { name: string; unitsIn: number; unitsOut: number }[];
    };
    expect(products[0]).toMatchObject({ name: 'Chair', unitsIn: 0, unitsOut: 19 });
  });

  it('lists dead stock: stock and no movement (nor creation) in 90 days', async () => {
    const raw = await readRaw(server.database.db, owner.id);
    const answer = (await json(owner, '/api/products/reports/dead-stock')) as {
      products: { name: string }[];
    };
    expect(answer).toEqual(deadStock(raw, clock.now()));
    expect(answer.products.map((product) => product.name)).toEqual(['Old shelf']);
    expect(answer.products[0]).toMatchObject({ stock: 50, value: 155 });
  });

  it('lists what to reorder and how many take it past its point', async () => {
    const raw = await readRaw(server.database.db, owner.id);
    const answer = await json(owner, '/api/products/reports/to-reorder');
    expect(answer).toEqual(toReorder(raw));
    expect((answer as { products: unknown[] }).products).toEqual([
      expect.objectContaining({ name: 'Desk lamp', stock: 2, reorderPoint: 10, toOrder: 9 }),
      expect.objectContaining({ name: 'New mug', stock: 2, reorderPoint: 10, toOrder: 9 }),
      expect.objectContaining({ name: 'Old shelf', stock: 50, reorderPoint: 50, toOrder: 1 }),
    ]);
  });

  it('refuses a period or a limit it does not offer with 400', async () => {
    for (const url of [
      '/api/products/reports/stock-over-time?days=7',
      '/api/products/reports/stock-over-time.csv?days=31',
      '/api/products/reports/top-movers?days=abc',
    ]) {
      const res = await get(owner, url);
      expect(res.status, url).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ message: 'days must be 30, 90 or 365' });
    }
    for (const url of [
      '/api/products/reports/top-movers?limit=0',
      '/api/products/reports/top-movers?limit=101',
      '/api/products/reports/dead-stock?limit=1001',
    ]) {
      expect((await get(owner, url)).status, url).toBe(400);
    }
  });

  it('gives each report as a CSV file with plain English columns, formula-safe', async () => {
    const raw = await readRaw(server.database.db, owner.id);
    // Each product's SKU, barcode and cost, as a report file carries them after its name.
    const codes = (id: string) => {
      const product = raw.products.find((row) => row.id === id)!;
      const cost = product.cost_cents === null ? '' : (product.cost_cents / 100).toFixed(2);
      return [product.sku ?? '', product.barcode ?? '', cost];
    };
    expect(codes(lamp.id)).toEqual(['LAMP-1', '4006381333931', '7.25']);
    const res = await get(owner, '/api/products/reports/stock-over-time.csv?days=90');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="stock-over-time-90-days.csv"',
    );
    const [header, ...rows] = csvRecords(res.body);
    expect(header).toEqual(['Date', 'Units in stock', 'Value']);
    expect(rows).toEqual(
      stockOverTime(raw, clock.now(), 90).days.map((day) => [
        day.date,
        String(day.units),
        asCsvMoney(day.value),
      ]),
    );

    const movers = await get(owner, '/api/products/reports/top-movers.csv?days=365');
    expect(movers.headers['content-disposition']).toBe(
      'attachment; filename="top-movers-365-days.csv"',
    );
    expect(csvRecords(movers.body)).toEqual([
      ['Product', 'SKU', 'Barcode', 'Cost', 'Units in', 'Units out', 'Units moved'],
      ...topMovers(raw, clock.now(), 365, 10).products.map((row) => [
        row.name.startsWith('=') ? `'${row.name}` : row.name,
        ...codes(row.id),
        String(row.unitsIn),
        String(row.unitsOut),
        String(row.moved),
      ]),
    ]);

    const dead = await get(owner, '/api/products/reports/dead-stock.csv');
    expect(dead.headers['content-disposition']).toBe('attachment; filename="dead-stock.csv"');
    expect(csvRecords(dead.body)).toEqual([
      ['Product', 'SKU', 'Barcode', 'Cost', 'Stock', 'Value', 'Last moved'],
      ...deadStock(raw, clock.now()).products.map((row) => [
        row.name,
        ...codes(row.id),
        String(row.stock),
        asCsvMoney(row.value),
        row.lastMovedAt,
      ]),
    ]);

    const reorder = await get(owner, '/api/products/reports/to-reorder.csv');
    expect(reorder.headers['content-disposition']).toBe('attachment; filename="to-reorder.csv"');
    const records = csvRecords(reorder.body);
    expect(records[0]).toEqual([
      'Product',
      'SKU',
      'Barcode',
      'Cost',
      'Stock',
      'Reorder point',
      'On order',
      'To order',
    ]);
    expect(records.slice(1)).toEqual(
      toReorder(raw).products.map((row) => [
        row.name,
        ...codes(row.id),
        String(row.stock),
        String(row.reorderPoint),
        String(row.onOrder),
        String(row.toOrder),
      ]),
    );
  });

  it("takes its JSON route's limit in each CSV file, with the same refusals; without one every row", async () => {
    const names = (body: string) =>
      csvRecords(body)
        .slice(1)
        .map((record) => record[0]);
    for (const report of ['to-reorder', 'dead-stock', 'top-movers']) {
      const all = (await json(owner, `/api/products/reports/${report}?limit=100`)) as {
        products: { name: string }[];
      };
      for (const limit of [1, 2]) {
        const res = await get(owner, `/api/products/reports/${report}.csv?limit=${limit}`);
        expect(res.status, res.body).toBe(200);
        expect(names(res.body), `${report} ${limit}`).toEqual(
          all.products
            .slice(0, limit)
            .map(({ name }) => (name.startsWith('=') ? `'${name}` : name)),
        );
      }
      for (const limit of ['0', '1001', 'abc', '1.5']) {
        const url = `/api/products/reports/${report}.csv?limit=${limit}`;
        const res = await get(owner, url);
        expect(res.status, url).toBe(400);
        const answer = await get(owner, `/api/products/reports/${report}?limit=${limit}`);
        expect(JSON.parse(res.body), url).toEqual(JSON.parse(answer.body));
      }
    }
    // No limit: every row.
    const raw = await readRaw(server.database.db, owner.id);
    const reorder = await get(owner, '/api/products/reports/to-reorder.csv');
    expect(names(reorder.body)).toEqual(toReorder(raw).products.map(({ name }) => name));
  });

  it('neutralizes a name that a spreadsheet would run', async () => {
    await must(await adjustStock(server, owner, formula.id, { delta: -10 }));
    const records = csvRecords((await get(owner, '/api/products/reports/to-reorder.csv')).body);
    expect(records.map((record) => record[0])).toContain("'=SUM(A1)");
  });

  it('adds up money exactly past 2^63 cents, where plain integer sums would overflow', async () => {
    const rich = await person(server, 'Report rich');
    const headers = { ...rich.headers } as Person['headers'] & Record<string, string>;
    headers[CLOCK_OFFSET_HEADER] = String(-2 * DAY);
    const yesterday: Person = { ...rich, headers };
    const gold = await createProduct(server, yesterday, {
      name: 'Gold bar',
      price: '99999999.99',
      stock: '0',
    });
    await must(await adjustStock(server, yesterday, gold.id, { delta: 2_147_483_647 }));
    for (const url of [
      '/api/products/reports/stock-over-time?days=30',
      '/api/products/reports/stock-over-time.csv?days=30',
    ]) {
      const res = await get(rich, url);
      expect(res.status, res.body).toBe(200);
    }
    const { days } = (await json(rich, '/api/products/reports/stock-over-time')) as {
      days: { units: number; value: number | string }[];
    };
    // 9,999,999,999 cents × 2,147,483,647 units, to the cent; none before the day it came in.
    expect(days.at(-1)).toEqual(expect.objectContaining({ value: '214748364678525163.53' }));
    expect(days.at(-1)!.units).toBe(2_147_483_647);
    expect(days[0]).toEqual(expect.objectContaining({ units: 0, value: 0 }));
    const csv = csvRecords((await get(rich, '/api/products/reports/stock-over-time.csv')).body);
    expect(csv.at(-1)![2]).toBe('214748364678525163.53');
  });

  it('answers a shared catalogue: a viewer reads and downloads, stock may not export, others 404', async () => {
    const viewer = await person(server, 'Report viewer');
    const stocker = await person(server, 'Report stocker');
    const outsider = await person(server, 'Report outsider');
    const shared = await catalogueWith(server, owner, 'Reported stock', [
      [viewer, 'viewer'],
      [stocker, 'stock'],
    ]);
    const made = await createProductIn(server, owner, shared, { stock: '4', name: 'Shared bolt' });
    await send(server, owner, {
      method: 'POST',
      url: `/api/catalogues/${shared}/products/${made}/stock`,
      json: { delta: 3 },
    });
    const raw = await readRaw(server.database.db, shared);
    const base = `/api/catalogues/${shared}/reports`;
    expect(await json(viewer, `${base}/stock-over-time?days=30`)).toEqual(
      stockOverTime(raw, clock.now(), 30),
    );
    expect(await json(viewer, `${base}/top-movers`)).toEqual(topMovers(raw, clock.now(), 30, 10));
    expect(await json(stocker, `${base}/to-reorder`)).toEqual(toReorder(raw));
    expect(await json(viewer, `${base}/dead-stock`)).toEqual(deadStock(raw, clock.now()));
    expect((await get(viewer, `${base}/to-reorder.csv`)).status).toBe(200);
    const refused = await get(stocker, `${base}/to-reorder.csv`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ message: roleCannot('stock', 'export') });
    for (const path of ['stock-over-time', 'top-movers', 'dead-stock.csv', 'to-reorder']) {
      const res = await get(outsider, `${base}/${path}`);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual(CATALOGUE_NOT_FOUND);
    }
    // The personal reports are the caller's own catalogue's: none of the shared products.
    const own = (await json(viewer, '/api/products/reports/top-movers')) as { products: unknown[] };
    expect(own.products).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { csvText, importCsv, productIdsOf } from '../support/products.js';
import {
  analyze,
  statementRecorder,
  tableReads,
  tableSizes,
  type TableRead,
} from '../support/statement-plans.js';
import { api, member, newCatalogue } from '../catalogues/support.js';

const OWN = 1_000;
const OTHERS = 20_000;
/** A table this large holds the other tenant's rows in bulk: reading it whole grows with them. */
const LARGE = 10_000;

/**
 * A request's cost must not grow with another tenant's catalogue. Each request below runs in a
 * 1,000-product catalogue, alone and then beside another tenant's 20,000 products (with their
 * movements, tags, activity, live events and stored answers), and every statement it ran is
 * explained as the engine would run it: none may read a table that holds the other tenant's rows
 * in full, none may be added by the other tenant's presence, and no write may read its whole
 * catalogue. Plans do not depend on the machine's load, so this cannot be flaky; they miss what
 * triggers and foreign keys do, which runs per changed row.
 */
describe("a request's cost beside another tenant's catalogue", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await member(server, 'Ada');
  const other = await member(server, 'Bo');
  const { id: catalogueId } = await newCatalogue(server, owner);
  const base = `/api/catalogues/${catalogueId}`;

  const seed = (target: string, count: number, prefix: string) =>
    bulkLoad(
      { db, dialect },
      target,
      Array.from({ length: count }, (_, i) => ({
        name: `${prefix} product ${i}`,
        description: `A ${prefix} thing`,
        priceCents: (i % 900) + 100,
        stock: i % 30,
        image: null,
        createdAt: i,
        tags: [`${prefix}-${i % 7}`],
        costCents: i % 2 === 0 ? 50 : null,
        sku: `${prefix}-SKU-${i}`,
        reorderPoint: i % 5 === 0 ? 12 : null,
      })),
    );
  await seed(catalogueId, OWN, 'own');
  const ownIds = await productIdsOf(db, catalogueId);
  // One endpoint listening to everything: each write queues its deliveries.
  await db
    .insertInto('webhooks')
    .values({
      id: randomUUID(),
      catalogue_id: catalogueId,
      url: 'https://hooks.example.test/in',
      events: JSON.stringify(['product.created', 'product.updated', 'stock.moved', 'undo']),
      secret: 'whsec_test',
      enabled: 1,
      created_at: 0,
      updated_at: 0,
      last_attempt_at: null,
      last_status: null,
      last_succeeded: null,
      last_error: null,
      last_success_at: null,
      disabled_at: null,
    })
    .execute();

  // A bin holding 20 of the products, for the reads by location.
  const bin = await api(server, owner, 'POST', `${base}/locations`, {
    name: 'Bin 1',
    parentId: null,
    code: 'BIN-CG-1',
  });
  const binId = (bin.json() as { location: { id: string } }).location.id;
  const moved = await api(server, owner, 'POST', `${base}/stock/transfers`, {
    lines: ownIds.slice(601, 621).map((productId) => ({
      productId,
      from: catalogueId,
      to: binId,
      quantity: 1,
    })),
  });
  expect(moved.statusCode, moved.body).toBe(200);

  const recorder = statementRecorder();
  afterAll(() => recorder.restore());

  // A count over the bin, open throughout: its lines are counted by the writes, read by the reads.
  let binCount: string | undefined;
  const countOfTheBin = async () => {
    if (binCount) return binCount;
    const res = await api(server, owner, 'POST', `${base}/counts`, {
      scope: { kind: 'location', locationId: binId },
    });
    expect(res.statusCode, res.body).toBe(201);
    binCount = (res.json() as { count: { id: string } }).count.id;
    return binCount;
  };

  const latestEntry = async (kind: string) => {
    const res = await api(server, owner, 'GET', `${base}/activity?kind=${kind}&limit=1`);
    return (res.json() as ActivityResponse).entries[0]!.id;
  };

  /**
   * The requests measured, each on products of its own (`n` picks them, so that the run beside
   * the other tenant changes other products than the run alone). Preparation runs outside the
   * measurement; the request is what is measured.
   */
  const writes: Record<string, (n: number) => Promise<() => Promise<unknown>>> = {
    create: async () => () =>
      api(server, owner, 'POST', `${base}/products`, {
        name: 'Fresh',
        description: 'New',
        price: 3,
        stock: 4,
        tags: ['own-1'],
        sku: `NEW-${randomUUID()}`,
      }),
    edit: async (n) => () =>
      api(server, owner, 'PATCH', `${base}/products/${ownIds[n]}`, {
        name: `Edited ${n}`,
        stock: 2,
        price: 7.5,
        tags: ['own-2'],
      }),
    'stock change': async (n) => () =>
      api(server, owner, 'POST', `${base}/products/${ownIds[n + 10]}/stock`, {
        delta: 5,
        reason: 'received',
      }),
    'stock count': async (n) => () =>
      api(server, owner, 'POST', `${base}/products/${ownIds[n + 20]}/stock`, { count: 0 }),
    'stock change with a key': async (n) => () =>
      server.app.inject({
        method: 'POST',
        url: `${base}/products/${ownIds[n + 30]}/stock`,
        headers: { ...owner.headers, 'idempotency-key': randomUUID() },
        payload: { delta: 2 },
      }),
    'undo of a stock change': async (n) => {
      await api(server, owner, 'POST', `${base}/products/${ownIds[n + 40]}/stock`, { delta: 1 });
      const entry = await latestEntry('stock.moved');
      return () => api(server, owner, 'POST', `${base}/activity/${entry}/undo`);
    },
    'undo of an edit': async (n) => {
      await api(server, owner, 'PATCH', `${base}/products/${ownIds[n + 50]}`, { stock: 1 });
      const entry = await latestEntry('product.updated');
      return () => api(server, owner, 'POST', `${base}/activity/${entry}/undo`);
    },
    delete: async (n) => () => api(server, owner, 'DELETE', `${base}/products/${ownIds[n + 60]}`),
    'undo of a delete': async (n) => {
      await api(server, owner, 'DELETE', `${base}/products/${ownIds[n + 70]}`);
      const entry = await latestEntry('product.deleted');
      return () => api(server, owner, 'POST', `${base}/activity/${entry}/undo`);
    },
    'bulk delete': async (n) => () =>
      api(server, owner, 'POST', `${base}/products/bulk-delete`, {
        ids: ownIds.slice(n + 80, n + 83),
      }),
    import: async (n) => () =>
      importCsv(
        server,
        owner,
        csvText([
          ['id', 'name', 'price', 'stock', 'description'],
          [ownIds[n + 90]!, `Imported ${n}`, '4.00', '9', 'Updated'],
          ['', `New import ${n}`, '5.00', '3', 'Created'],
        ]),
        '',
        `${base}/products`,
      ),
    // Stock moved out of the default location into the bin: one line, and twenty (products with
    // stock there: `i % 30` units each).
    move: async (n) => () =>
      api(server, owner, 'POST', `${base}/stock/transfers`, {
        productId: ownIds[n + 101],
        from: catalogueId,
        to: binId,
        quantity: 1,
      }),
    'move of 20 lines': async (n) => () =>
      api(server, owner, 'POST', `${base}/stock/transfers`, {
        lines: ownIds.slice(n + 121, n + 141).map((productId) => ({
          productId,
          from: catalogueId,
          to: binId,
          quantity: 1,
        })),
      }),
    // A line of the bin's count; then a count of a shelf of its own, three lines, posted.
    'count a line': async (n) => {
      const countId = await countOfTheBin();
      return () =>
        api(server, owner, 'POST', `${base}/counts/${countId}/lines`, {
          productId: ownIds[n + 161],
          locationId: binId,
          counted: 3,
        });
    },
    'post a count': async (n) => {
      const shelf = await api(server, owner, 'POST', `${base}/locations`, {
        name: `Shelf ${n}`,
        parentId: null,
        code: `SHELF-CG-${n}`,
      });
      const shelfId = (shelf.json() as { location: { id: string } }).location.id;
      const started = await api(server, owner, 'POST', `${base}/counts`, {
        scope: { kind: 'location', locationId: shelfId },
      });
      const countId = (started.json() as { count: { id: string } }).count.id;
      for (const productId of ownIds.slice(n + 171, n + 174)) {
        await api(server, owner, 'POST', `${base}/counts/${countId}/lines`, {
          productId,
          locationId: shelfId,
          counted: 2,
        });
      }
      return () => api(server, owner, 'POST', `${base}/counts/${countId}/post`, {});
    },
    'catalogue reorder point': async () => {
      await api(server, owner, 'PATCH', base, { reorderPoint: 10 });
      return () => api(server, owner, 'PATCH', base, { reorderPoint: 8 });
    },
  };

  const reads: Record<string, () => Promise<() => Promise<unknown>>> = {
    list: async () => () => api(server, owner, 'GET', `${base}/products`),
    'list by name': async () => () => api(server, owner, 'GET', `${base}/products?sort=name`),
    'list by stock': async () => () =>
      api(server, owner, 'GET', `${base}/products?sort=stock-asc&stock=low`),
    'list of a tag': async () => () => api(server, owner, 'GET', `${base}/products?tag=own-3`),
    'list to reorder': async () => () =>
      api(server, owner, 'GET', `${base}/products?stock=reorder`),
    search: async () => () => api(server, owner, 'GET', `${base}/products?q=product%2012`),
    'one product': async () => () => api(server, owner, 'GET', `${base}/products/${ownIds[500]}`),
    lookup: async () => () => api(server, owner, 'GET', `${base}/products/lookup?code=own-sku-500`),
    'lookup of a location': async () => () =>
      api(server, owner, 'GET', `${base}/products/lookup?code=bin-cg-1`),
    'list of a location': async () => () =>
      api(server, owner, 'GET', `${base}/products?location=${binId}&sort=name`),
    'summary of a location': async () => () =>
      api(server, owner, 'GET', `${base}/products/summary?location=${binId}`),
    'summary of a location, low': async () => () =>
      api(server, owner, 'GET', `${base}/products/summary?location=${binId}&stock=low`),
    movements: async () => () =>
      api(server, owner, 'GET', `${base}/products/${ownIds[500]}/movements`),
    activity: async () => () => api(server, owner, 'GET', `${base}/activity`),
    summary: async () => () => api(server, owner, 'GET', `${base}/products/summary`),
    'summary of the low': async () => () =>
      api(server, owner, 'GET', `${base}/products/summary?stock=low`),
    'summary to reorder': async () => () =>
      api(server, owner, 'GET', `${base}/products/summary?stock=reorder`),
    'to-reorder report': async () => () => api(server, owner, 'GET', `${base}/reports/to-reorder`),
    'stock over time': async () => () =>
      api(server, owner, 'GET', `${base}/reports/stock-over-time?days=365`),
    // Once a day the first report moves the windows on (the days left behind are taken out):
    // what is measured is every other one of the day.
    'top movers': async () => {
      await api(server, owner, 'GET', `${base}/reports/top-movers?days=365`);
      return () => api(server, owner, 'GET', `${base}/reports/top-movers?days=365`);
    },
    'dead stock': async () => () => api(server, owner, 'GET', `${base}/reports/dead-stock`),
    counts: async () => () => api(server, owner, 'GET', `${base}/counts`),
    'a count': async () => {
      const countId = await countOfTheBin();
      return () => api(server, owner, 'GET', `${base}/counts/${countId}`);
    },
    "a count's CSV": async () => {
      const countId = await countOfTheBin();
      return () => api(server, owner, 'GET', `${base}/counts/${countId}.csv`);
    },
    "a count's sheet": async () => {
      const countId = await countOfTheBin();
      return () => api(server, owner, 'GET', `${base}/counts/${countId}/sheet.pdf`);
    },
  };

  const sizes = new Map<string, number>();
  const tables = () => new Set(sizes.keys());

  /** Runs each request once, recording its statements, and explains them once it is done. */
  async function measure(
    requests: Record<string, (n: number) => Promise<() => Promise<unknown>>>,
    n: number,
  ) {
    const measured = new Map<string, { statements: CompiledQuery[]; reads: TableRead[] }>();
    for (const [name, prepare] of Object.entries(requests)) {
      const send = await prepare(n);
      const { result, statements } = await recorder.during(send);
      const status = (result as { statusCode: number }).statusCode;
      expect(status, `${name}: ${(result as { body: string }).body}`).toBeLessThan(300);
      const explained: TableRead[] = [];
      const shown = [`## ${name} (${n})`];
      for (const statement of statements) {
        const reads = await tableReads(db, dialect, statement, tables());
        explained.push(...reads);
        shown.push(
          `  ${statement.sql}`,
          ...reads.map((read) => `    ${read.reach}: ${read.detail}`),
        );
      }
      measured.set(name, { statements, reads: explained });
      // SHOW_PLANS=<file> writes every statement and its reads there: where to look first.
      if (process.env.SHOW_PLANS) appendFileSync(process.env.SHOW_PLANS, `${shown.join('\n')}\n`);
    }
    return measured;
  }

  /** The other tenant's catalogue and what its use leaves behind, in bulk. */
  async function seedOtherTenant() {
    await seed(other.id, OTHERS, 'other');
    // 10,000 locations, as many as a catalogue may have, under one warehouse.
    const warehouse = randomUUID();
    const places = Array.from({ length: LARGE }, (_, i) => ({
      id: i === 0 ? warehouse : randomUUID(),
      catalogue_id: other.id,
      parent_id: i === 0 ? null : warehouse,
      name: `Place ${i}`,
      name_key: `place ${i}`,
      code: `PLACE-${i}`,
      code_key: `place-${i}`,
      created_at: 0,
      updated_at: 0,
    }));
    for (let i = 0; i < places.length; i += 500) {
      await db
        .insertInto('locations')
        .values(places.slice(i, i + 500))
        .execute();
    }
    const ids = (
      await db.selectFrom('products').select('id').where('catalogue_id', '=', other.id).execute()
    ).map((row) => row.id);
    // A count of every product of theirs, each counted at the warehouse.
    const otherCount = randomUUID();
    await db
      .insertInto('counts')
      .values({
        id: otherCount,
        catalogue_id: other.id,
        name: 'Their count',
        scope_kind: 'catalogue',
        scope_location_id: null,
        scope_tag: null,
        scope_key: 'catalogue',
        blind: 0,
        status: 'open',
        created_by: other.id,
        created_at: 0,
        updated_at: 0,
        posted_at: null,
        lines: OTHERS,
      })
      .execute();
    for (let i = 0; i < OTHERS; i += 500) {
      const rows = ids.slice(i, i + 500);
      await db
        .insertInto('activity_entries')
        .values(
          rows.map((id, j) => ({
            catalogue_id: other.id,
            actor_id: other.id,
            kind: 'stock.moved' as const,
            product_id: id,
            product_name: 'Other',
            data: '{}',
            created_at: i + j,
          })),
        )
        .execute();
      await db
        .insertInto('count_lines')
        .values(
          rows.map((id) => ({
            count_id: otherCount,
            product_id: id,
            location_id: warehouse,
            catalogue_id: other.id,
            expected: 0,
            counted: 1,
            counted_by: other.id,
            counted_at: 0,
          })),
        )
        .execute();
      await db
        .insertInto('live_events')
        .values(
          rows.map((id, j) => ({
            catalogue_id: other.id,
            kind: 'stock.changed',
            data: JSON.stringify({ id }),
            created_at: i + j,
          })),
        )
        .execute();
      await db
        .insertInto('idempotency_keys')
        .values(
          rows.map((id) => ({
            owner_id: other.id,
            key: id,
            fingerprint: 'x',
            status: 200,
            body: '{}',
            created_at: server.clock.now(),
          })),
        )
        .execute();
    }
  }

  type Measured = Awaited<ReturnType<typeof measure>>;
  let alone: Record<'writes' | 'reads', Measured>;
  let beside: Record<'writes' | 'reads', Measured>;
  beforeAll(async () => {
    for (const [name, size] of await tableSizes(db, dialect)) sizes.set(name, size);
    alone = { writes: await measure(writes, 0), reads: await measure(reads, 0) };
    await seedOtherTenant();
    await analyze(db, dialect);
    sizes.clear();
    for (const [name, size] of await tableSizes(db, dialect)) sizes.set(name, size);
    // Products as far into the catalogue as the first run's, in the same states.
    beside = { writes: await measure(writes, 300), reads: await measure(reads, 300) };
  }, 180_000);

  const large = () => new Set([...sizes].filter(([, size]) => size >= LARGE).map(([name]) => name));

  /** Each read of a large table that reaches as far as `reach`, with how. */
  function readsReaching(
    measured: Map<string, { reads: TableRead[] }>,
    reach: TableRead['reach'],
    except: string[] = [],
  ) {
    const big = large();
    return [...measured]
      .filter(([name]) => !except.includes(name))
      .flatMap(([name, { reads }]) =>
        reads
          .filter((read) => read.reach === reach && big.has(read.table))
          .map((read) => `${name}: ${read.detail}`),
      );
  }

  it('holds the other tenant in bulk in the tables it measures', () => {
    expect([...large()].sort()).toEqual(
      expect.arrayContaining([
        'activity_entries',
        'count_lines',
        'idempotency_keys',
        'live_events',
        'locations',
        'product_tags',
        'products',
        'stock_levels',
        'stock_movements',
      ]),
    );
  });

  it.each(['writes', 'reads'] as const)('no %s read a table of every tenant in full', (kind) => {
    expect(readsReaching(beside[kind], 'all')).toEqual([]);
  });

  // Nor, for a write, every row of its own catalogue: it names the rows it changes. A change of
  // the catalogue's reorder point reads its products between the two points, a range of stock
  // that only the catalogue's equality bounds here.
  it('no write reads all of its catalogue', () => {
    expect(readsReaching(beside.writes, 'catalogue', ['catalogue reorder point'])).toEqual([]);
  });

  // One product's stock rows are found by its id: never the range of its catalogue. (SQLite,
  // without statistics, once took the catalogue's covering index of stock rows over their primary
  // key, and read every stock row of the catalogue for one product.)
  it("one product reads its own stock rows, not its catalogue's", () => {
    for (const measured of [alone.reads, beside.reads]) {
      const reads = measured.get('one product')!.reads.filter((r) => r.table === 'stock_levels');
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.filter((read) => read.reach !== 'keyed').map((r) => r.detail)).toEqual([]);
    }
  });

  // Nor may they grow with their own catalogue: a summary reads the catalogue's kept totals, and
  // the to-reorder report reads the products to reorder alone, through the indexes that hold them.
  it('the summary reads no product, the to-reorder report those to reorder alone', () => {
    for (const measured of [alone.reads, beside.reads]) {
      const productReads = (name: string) =>
        measured.get(name)!.reads.filter((read) => read.table === 'products');
      for (const name of ['summary', 'summary of the low', 'summary to reorder']) {
        expect(productReads(name), name).toEqual([]);
      }
      // The list's stock=reorder too, its page from the index of the marked in its order (SQLite;
      // PostgreSQL chooses by its statistics, an index of the catalogue at this size).
      const lists = dialect === 'sqlite' ? ['list to reorder'] : [];
      for (const name of ['to-reorder report', ...lists]) {
        const reads = productReads(name);
        expect(reads.length, name).toBeGreaterThan(0);
        expect(
          reads.filter((read) => !/products_reorder_(own|default|by_)/.test(read.detail)),
          name,
        ).toEqual([]);
      }
    }
  });

  // Nor with the movements: the stock over time reads a row per day of the catalogue, the top
  // movers the rows of their answer from the kept windows, both kept as movements are written;
  // the dead stock the rows of its answer from the index of products by when they last moved.
  it('the 365-day reports read kept days and windows, the dead stock its index', () => {
    for (const measured of [alone.reads, beside.reads]) {
      const tablesRead = (name: string) => measured.get(name)!.reads.map((read) => read.table);
      const overTime = tablesRead('stock over time');
      expect(overTime).toContain('catalogue_days');
      expect(overTime.filter((table) => ['products', 'stock_movements'].includes(table))).toEqual(
        [],
      );
      const movers = tablesRead('top movers');
      expect(movers).toContain('product_windows');
      expect(movers.filter((table) => ['product_days', 'stock_movements'].includes(table))).toEqual(
        [],
      );
      const dead = measured.get('dead stock')!.reads;
      expect(dead.map((read) => read.table)).not.toContain('stock_movements');
      const products = dead.filter((read) => read.table === 'products');
      expect(products.length).toBeGreaterThan(0);
      expect(products.filter((read) => !/products_idle/.test(read.detail))).toEqual([]);
    }
  });

  // A location's summary reads the row the database keeps for it (migration 061) by key: none of
  // what it holds, nor the locations under it, whatever it or another tenant holds.
  it("a location's summary reads its kept row by key, nothing it holds", () => {
    for (const measured of [alone.reads, beside.reads]) {
      for (const name of ['summary of a location', 'summary of a location, low']) {
        const reads = measured.get(name)!.reads;
        const kept = reads.filter((read) => read.table === 'location_totals');
        expect(kept.length, name).toBeGreaterThan(0);
        // Of the large tables (PostgreSQL scans a small one, such as the sessions, in full).
        const big = new Set([...large(), 'location_totals']);
        expect(
          reads
            .filter((read) => big.has(read.table) && read.reach !== 'keyed')
            .map((read) => read.detail),
          name,
        ).toEqual([]);
        const held = ['stock_levels', 'products', 'locations', 'location_holdings'];
        expect(
          reads.filter((read) => held.includes(read.table)).map((read) => read.detail),
          name,
        ).toEqual([]);
      }
    }
  });

  // A location's list reads what it holds by the locations' index and those products by id; it
  // never walks its catalogue's products or locations. PostgreSQL weighs that against reading a
  // small catalogue's rows by its statistics (locations/location-list-plans.test.ts holds it to
  // no table scan); SQLite, without statistics, is held to this plan.
  it.runIf(dialect === 'sqlite')(
    'the list of a location reads its stock rows and their products, not the catalogue',
    () => {
      for (const measured of [alone.reads, beside.reads]) {
        for (const name of ['list of a location']) {
          const reads = measured.get(name)!.reads;
          expect(
            reads.filter((read) => read.table === 'stock_levels').length,
            name,
          ).toBeGreaterThan(0);
          expect(
            reads.filter((read) => read.reach !== 'keyed').map((r) => r.detail),
            name,
          ).toEqual([]);
        }
        expect(
          measured.get('lookup of a location')!.reads.filter((r) => r.reach !== 'keyed'),
        ).toEqual([]);
      }
    },
  );

  it.each(['writes', 'reads'] as const)(
    'the %s run the same statements beside the other tenant as alone',
    (kind) => {
      const count = (measured: Map<string, { statements: CompiledQuery[] }>) =>
        Object.fromEntries(
          [...measured]
            // A search on SQLite asks the trigram index, which every catalogue shares, for
            // candidates, and checks them 100 at a time: another catalogue's matches add checks,
            // up to 1,000 candidates, past which it reads its own catalogue in windows instead.
            .filter(([name]) => !(name === 'search' && dialect === 'sqlite'))
            // The session's lookup, which a cache in front of it skips at times, is left out.
            .map(([name, { statements }]) => [
              name,
              statements.filter((statement) => !/^select "sessions"\./.test(statement.sql)).length,
            ]),
        );
      expect(count(beside[kind])).toEqual(count(alone[kind]));
    },
  );
});

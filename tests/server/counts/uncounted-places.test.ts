import { afterAll, describe, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import type { CountDetail } from '../../../src/shared/schemas/counts/counts.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { makePending } from '../support/pending-imports.js';
import { productIdsOf } from '../support/products.js';
import { planText, statementRecorder, stockedWarehouse } from '../support/statement-plans.js';

const PRODUCTS = 300;

/**
 * A review lists the places of the count's scope never counted: how many, and the first 200 by
 * product and location. Over a whole catalogue those are every place it holds stock in (300,000
 * in a catalogue of 100,000 products), so how they are read decides the page's cost: probing the
 * count's lines and the product once per place, then sorting every place for the first 200, took
 * seconds on SQLite. The answers are compared here with the places worked out from the rows, for
 * each kind of scope, with lines at places no longer held, lines outside the scope and a pending
 * import's products; and the statements are held to counting down an index and to walking the
 * catalogue's products in order.
 */
describe('the places of a count never counted', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await signIn(server);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  const first = await call('POST', '/api/products', {
    name: 'Seed',
    price: 1,
    description: 'A seed',
    stock: 0,
  });
  expect(first.statusCode, first.body).toBe(201);
  const seedId = (first.json() as { product: { id: string } }).product.id;
  const { catalogue_id: catalogueId } = await db
    .selectFrom('products')
    .select('catalogue_id')
    .where('id', '=', seedId)
    .executeTakeFirstOrThrow();
  await bulkLoad(
    { db, dialect },
    catalogueId,
    Array.from({ length: PRODUCTS }, (_, i) => ({
      name: `Product ${i}`,
      description: 'Plain',
      priceCents: 100,
      stock: 0,
      image: null,
      createdAt: i,
      tags: i % 3 === 0 ? ['shelf'] : [],
    })),
  );
  const { aisles, bins } = await stockedWarehouse(db, catalogueId, [0, 7, 33]);
  const ids = await productIdsOf(db, catalogueId);
  await makePending(db, [ids[5]!, ids[6]!]);

  const recorder = statementRecorder();
  afterAll(() => recorder.restore());

  /** The places the scope holds stock in, worked out from the rows, less those counted. */
  async function expectedUncounted(countId: string, inScope: (place: Place) => boolean) {
    const pending = new Set(
      (
        await db.selectFrom('products').select('id').where('import_id', 'is not', null).execute()
      ).map((row) => row.id),
    );
    const counted = new Set(
      (
        await db
          .selectFrom('count_lines')
          .select(['product_id', 'location_id'])
          .where('count_id', '=', countId)
          .execute()
      ).map((line) => `${line.product_id} ${line.location_id}`),
    );
    const held = await db
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('catalogue_id', '=', catalogueId)
      .where('quantity', '>', 0)
      .execute();
    return held
      .filter((place) => !pending.has(place.product_id) && inScope(place))
      .filter((place) => !counted.has(`${place.product_id} ${place.location_id}`))
      .map((place) => ({
        productId: place.product_id,
        locationId: place.location_id,
        expected: Number(place.quantity),
      }))
      .sort((a, b) =>
        a.productId === b.productId
          ? compare(a.locationId, b.locationId)
          : compare(a.productId, b.productId),
      );
  }

  const tagged = new Set(
    (
      await db
        .selectFrom('product_tags')
        .select('product_id')
        .where('catalogue_id', '=', catalogueId)
        .where('tag_key', '=', 'shelf')
        .execute()
    ).map((row) => row.product_id),
  );
  const aisle = aisles[1]!;
  const aisleBins = new Set(bins.slice(20, 40));
  const bin = bins[100]!;
  const scopes = [
    { name: 'a catalogue', scope: { kind: 'catalogue' }, inScope: () => true, found: 0 },
    {
      name: 'a tag',
      scope: { kind: 'tag', tag: 'shelf' },
      inScope: (p: Place) => tagged.has(p.product_id),
      found: 0,
    },
    {
      name: 'an aisle',
      scope: { kind: 'location', locationId: aisle },
      inScope: (p: Place) => aisleBins.has(p.location_id),
      found: 0,
    },
    // A bin of a few places where many products were found that the stock did not expect: more
    // lines than places held, so the places are the shorter read.
    {
      name: 'a bin counted past its places',
      scope: { kind: 'location', locationId: bin },
      inScope: (p: Place) => p.location_id === bin,
      found: 20,
    },
  ];

  it.each(scopes)('are every held place of $name not counted', async (entry) => {
    const started = await call('POST', '/api/counts', { scope: entry.scope });
    expect(started.statusCode, started.body).toBe(201);
    const { id } = (started.json() as { count: { id: string } }).count;

    // Lines at held places of the scope, one found where none was expected, and one whose place
    // is emptied after it was counted: a place no longer held is not one never counted.
    const held = await expectedUncounted(id, entry.inScope);
    for (const place of held.filter((_, i) => i % 9 === 0).slice(0, 30)) {
      const res = await call('POST', `/api/counts/${id}/lines`, {
        productId: place.productId,
        locationId: place.locationId,
        counted: place.expected + 1,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const heldThere = new Set(held.map((place) => place.productId));
    const found = ids.filter((id, i) => i > 6 && !heldThere.has(id)).slice(0, entry.found);
    for (const productId of found) {
      const res = await call('POST', `/api/counts/${id}/lines`, {
        productId,
        locationId: entry.scope.kind === 'location' ? entry.scope.locationId : bins[0],
        counted: 1,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const emptied = held[1]!;
    const line = await call('POST', `/api/counts/${id}/lines`, {
      productId: emptied.productId,
      locationId: emptied.locationId,
      counted: 0,
    });
    expect(line.statusCode, line.body).toBe(200);
    const change = await call('POST', `/api/products/${emptied.productId}/stock`, {
      delta: -emptied.expected,
      locationId: emptied.locationId,
    });
    expect(change.statusCode, change.body).toBe(200);

    const { result: res, statements } = await recorder.during(() =>
      call('GET', `/api/counts/${id}`),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { uncounted } = res.json() as CountDetail;
    const want = await expectedUncounted(id, entry.inScope);
    const lines = await db
      .selectFrom('count_lines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('count_id', '=', id)
      .executeTakeFirstOrThrow();
    if (entry.found > 0) expect(want.length).toBeLessThan(Number(lines.n) - 1);
    else expect(want.length).toBeGreaterThan(entry.scope.kind === 'location' ? 50 : 200);
    expect(uncounted?.total).toBe(want.length);
    expect(
      uncounted?.places.map(({ productId, locationId, expected }) => ({
        productId,
        locationId,
        expected,
      })),
    ).toEqual(want.slice(0, 200));

    if (dialect !== 'sqlite') return;
    // SQLite plans as written: the count of places must read an index, not probe each place's
    // lines and product; the catalogue's first places must come from its products in order.
    for (const statement of statements.filter(readsPlaces)) {
      const plan = await planText(db, dialect, statement);
      if (/count\(\*\)/i.test(statement.sql)) {
        expect(plan, statement.sql).not.toMatch(/CORRELATED/);
        // A location's places and the catalogue's are kept (migration 066): the count reads
        // the shorter of the two, the count's lines (each one's stock row by key) or the
        // scope's places (each one's line by key).
        if (entry.found > 0) {
          const reads = plan.split('\n').filter((step) => /^(SCAN|SEARCH) cl\b/.test(step));
          expect(reads.length, plan).toBeGreaterThan(0);
          for (const read of reads)
            expect(read, plan).toMatch(
              /^SEARCH cl .*count_id=\? AND product_id=\? AND location_id=\?/,
            );
        } else if (entry.scope.kind !== 'tag') {
          const reads = plan.split('\n').filter((step) => /^(SCAN|SEARCH) sl\b/.test(step));
          expect(reads.length, plan).toBeGreaterThan(0);
          for (const read of reads) expect(read, plan).toMatch(/^SEARCH sl .*product_id=\?/);
        }
      }
      if (entry.scope.kind === 'catalogue')
        expect(plan, statement.sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
  });
});

interface Place {
  product_id: string;
  location_id: string;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const readsPlaces = (statement: CompiledQuery) => /\bstock_levels sl\b/.test(statement.sql);

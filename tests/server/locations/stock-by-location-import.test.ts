import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MAX_STOCK } from '../../../src/shared/constants.js';
import { M } from '../../../src/shared/messages.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { setCountedLevels } from '../../../src/server/features/products/stock-counts.js';
import { writeCatalogue } from '../../../src/server/features/writes/index.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { SI, type StockImportReport } from '../../../src/shared/schemas/locations/stock-import.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import {
  adjustStock,
  createProduct,
  csvText,
  importCsv,
  plainProducts,
  productIdsOf,
} from '../support/products.js';
import { person, setMember } from '../catalogues/catalogue-world.js';

const server = await build();
const { db } = server.database;

async function newLocation(who: SignedIn, name: string, parentId: string | null, base = '/api') {
  const res = await server.app.inject({
    method: 'POST',
    url: `${base}/locations`,
    headers: who.headers,
    payload: { name, parentId },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}

const HEADER = ['id', 'sku', 'barcode', 'name', 'location', 'quantity'];

/** POST …/stock-by-location/import with a CSV file. */
const importCounts = (who: SignedIn, csv: string, query = '', base = '/api/products') =>
  importCsv(server, who, csv, query, `${base}/stock-by-location`);

/** Everything an import may change in a catalogue, to compare before and after. */
async function state(catalogueId: string) {
  const [products, levels, locations, movements, activity, live, totals] = await Promise.all([
    db
      .selectFrom('products')
      .select(['id', 'stock', 'updated_at'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('stock_levels')
      .select(['product_id', 'location_id', 'quantity'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('product_id')
      .orderBy('location_id')
      .execute(),
    db
      .selectFrom('locations')
      .select(['id', 'units'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('id')
      .execute(),
    db.selectFrom('stock_movements').select('id').where('catalogue_id', '=', catalogueId).execute(),
    db
      .selectFrom('activity_entries')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .execute(),
    db.selectFrom('live_events').select('id').where('catalogue_id', '=', catalogueId).execute(),
    db.selectFrom('catalogues').selectAll().where('id', '=', catalogueId).execute(),
  ]);
  return { products, levels, locations, movements, activity, live, totals };
}

/** A product's stock is the sum of its quantities, a location's units the sum of what it holds. */
async function expectSums(catalogueId: string) {
  const { products, levels, locations } = await state(catalogueId);
  for (const product of products) {
    const sum = levels
      .filter((level) => level.product_id === product.id)
      .reduce((total, level) => total + level.quantity, 0);
    expect(product.stock, product.id).toBe(sum);
  }
  for (const location of locations) {
    const sum = levels
      .filter((level) => level.location_id === location.id)
      .reduce((total, level) => total + level.quantity, 0);
    expect(Number(location.units), location.id).toBe(sum);
  }
}

const levelsOf = async (productId: string) =>
  Object.fromEntries(
    (
      await db
        .selectFrom('stock_levels')
        .select(['location_id', 'quantity'])
        .where('product_id', '=', productId)
        .execute()
    ).map((row) => [row.location_id, row.quantity]),
  );

/** A catalogue with a shelf under a warehouse, a bin, and two products with stock in places. */
async function world() {
  const user = await signIn(server);
  const { id: catalogueId } = (await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow()) as { id: string };
  const warehouse = await newLocation(user, 'Warehouse', null);
  const shelf = await newLocation(user, 'Shelf A', warehouse.id);
  const bin = await newLocation(user, 'Bin', null);
  const lamp = await createProduct(server, user, { name: 'Lamp', stock: '4', sku: 'LAMP-1' });
  await adjustStock(server, user, lamp.id, { delta: 6, locationId: shelf.id });
  const bolt = await createProduct(server, user, {
    name: 'Bolt',
    stock: '0',
    barcode: '0012345678905',
  });
  await adjustStock(server, user, bolt.id, { delta: 3, locationId: bin.id });
  return { user, catalogueId, warehouse, shelf, bin, lamp, bolt };
}

describe('stock by location imported from CSV', () => {
  it('checks on a dry run without changing anything, then sets exactly those quantities', async () => {
    const { user, catalogueId, shelf, bin, lamp, bolt } = await world();
    const csv = csvText([
      HEADER,
      // By id at a path (any case): 6 → 2.
      [lamp.id, '', '', 'Lamp', 'warehouse / shelf a', 2],
      // By SKU at the default location: 4 stays 4.
      ['', 'lamp-1', '', '', 'Main', 4],
      // By barcode at a location's code: none → 5.
      ['', '', '0012345678905', 'Bolt', shelf.code, 5],
    ]);
    const before = await state(catalogueId);

    const dry = await importCounts(user, csv, 'dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toEqual({
      message: SI.checked(2, 1),
      changed: 2,
      unchanged: 1,
      errors: [],
      changes: [
        {
          line: 2,
          productId: lamp.id,
          name: 'Lamp',
          location: 'Warehouse / Shelf A',
          before: 6,
          after: 2,
        },
        {
          line: 4,
          productId: bolt.id,
          name: 'Bolt',
          location: 'Warehouse / Shelf A',
          before: 0,
          after: 5,
        },
      ],
    });
    expect(await state(catalogueId)).toEqual(before);

    const res = await importCounts(user, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: SI.done(2, 1),
      changed: 2,
      unchanged: 1,
      errors: [],
    });
    expect(await levelsOf(lamp.id)).toEqual({ [catalogueId]: 4, [shelf.id]: 2 });
    // The bin's 3 were not in the file: they stay.
    expect(await levelsOf(bolt.id)).toEqual({ [bin.id]: 3, [shelf.id]: 5 });
    await expectSums(catalogueId);

    const movements = await db
      .selectFrom('stock_movements')
      .select(['product_id', 'old_stock', 'new_stock', 'source', 'reason', 'location_id'])
      .where('catalogue_id', '=', catalogueId)
      .where('source', '=', 'import')
      .orderBy('id')
      .execute();
    expect(movements).toEqual(
      [
        {
          product_id: bolt.id,
          old_stock: 3,
          new_stock: 8,
          source: 'import',
          reason: 'counted',
          location_id: shelf.id,
        },
        {
          product_id: lamp.id,
          old_stock: 10,
          new_stock: 6,
          source: 'import',
          reason: 'counted',
          location_id: shelf.id,
        },
      ].sort((a, b) => (a.product_id < b.product_id ? -1 : 1)),
    );
    const after = await state(catalogueId);
    expect(after.activity.length).toBe(before.activity.length + 1);
    expect(after.live.length).toBe(before.live.length + 1);
    const entry = await db
      .selectFrom('activity_entries')
      .select(['kind', 'source', 'data'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.kind).toBe('stock.imported');
    expect(entry.source).toBe('import');
    expect(JSON.parse(entry.data as string)).toEqual({ changed: 2, unchanged: 1, products: 2 });

    // The list and the product answer the new totals.
    const got = await server.app.inject({
      method: 'GET',
      url: `/api/products/${lamp.id}`,
      headers: user.headers,
    });
    expect(got.json().product.stock).toBe(6);
  });

  it('gives back its own export unchanged', async () => {
    const { user, catalogueId } = await world();
    const exported = await server.app.inject({
      method: 'GET',
      url: '/api/products/stock-by-location.csv',
      headers: user.headers,
    });
    const before = await state(catalogueId);
    const res = await importCounts(user, exported.body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 0, unchanged: 3 });
    const after = await state(catalogueId);
    expect(after.levels).toEqual(before.levels);
    expect(after.products.map(({ stock }) => stock)).toEqual(
      before.products.map(({ stock }) => stock),
    );
  });

  it('refuses the whole file for any bad row, naming each line, and changes nothing', async () => {
    const { user, catalogueId, shelf, lamp, bolt } = await world();
    const other = await signIn(server);
    const theirs = await createProduct(server, other, { name: 'Theirs', stock: '1' });
    const csv = csvText([
      HEADER,
      [lamp.id, '', '', '', 'Warehouse / Shelf A', 1],
      [theirs.id, '', '', '', 'Main', 1],
      ['', 'NO-SUCH', '', '', 'Main', 1],
      [bolt.id, '', '', '', 'Nowhere', 1],
      [bolt.id, '', '', '', 'Main', -1],
      [bolt.id, '', '', '', 'Main', '2.5'],
      ['', '', '', 'Bolt', 'Main', 1],
      ['', 'lamp-1', '', '', shelf.code, 3],
      [bolt.id, '', '', '', 'Main', 2147483644],
      [lamp.id, '', '', '', 'Main', 2147483647],
    ]);
    const before = await state(catalogueId);
    for (const query of ['', 'dryRun=true']) {
      const res = await importCounts(user, csv, query);
      const report = res.json() as StockImportReport;
      expect(res.statusCode, res.body).toBe(query ? 200 : 400);
      expect(report.errors).toEqual([
        { line: 3, path: 'id', message: SI.productNotFound },
        { line: 4, path: 'sku', message: SI.productNotFound },
        { line: 5, path: 'location', message: SI.locationNotFound },
        { line: 6, path: 'quantity', message: SI.quantityInvalid },
        { line: 7, path: 'quantity', message: SI.quantityInvalid },
        { line: 8, path: 'id', message: SI.noProductKey },
        { line: 9, path: 'location', message: SI.repeated(2) },
        { line: 11, path: 'quantity', message: SI.aboveMax },
      ]);
      if (!query) expect(report).toMatchObject({ message: SI.failed(8), changed: 0, unchanged: 0 });
    }
    // Worded for a user, as the app's other messages: capitalised, the number grouped.
    expect(SI.quantityInvalid).toBe('Quantity must be a whole number from 0 to 2,147,483,647');
    expect(await state(catalogueId)).toEqual(before);
  });

  it('refuses a file without the columns it needs', async () => {
    const { user, catalogueId } = await world();
    const before = await state(catalogueId);
    const res = await importCounts(
      user,
      csvText([
        ['name', 'location'],
        ['Lamp', 'Main'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { line: 1, path: 'quantity', message: 'The header row has no "quantity" column' },
      { line: 1, path: 'id', message: SI.noProductColumn },
    ]);
    const empty = await importCounts(user, csvText([HEADER]));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe(M.importNoRows);
    // An empty file names this import's columns, not the products import's.
    for (const nothing of ['', '\uFEFF\r\n']) {
      const res = await importCounts(user, nothing);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: SI.empty,
        errors: [{ line: 1, path: 'file', message: SI.empty }],
      });
    }
    expect(SI.empty).toContain('location, quantity');
    expect(await state(catalogueId)).toEqual(before);
  });

  it('refuses a path two locations share (names from before " / " was refused), not guessing', async () => {
    const { user, catalogueId, warehouse, shelf, lamp } = await world();
    // A top-level location named as the shelf's path: the API refuses such a name now.
    const now = Date.now();
    await db
      .insertInto('locations')
      .values({
        id: randomUUID(),
        catalogue_id: catalogueId,
        parent_id: null,
        name: `${warehouse.name} / ${shelf.name}`,
        name_key: `${warehouse.name} / ${shelf.name}`.toLowerCase(),
        code: 'OLD-NAME',
        code_key: 'old-name',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const before = await state(catalogueId);
    const csv = csvText([
      HEADER,
      [lamp.id, '', '', '', 'warehouse / shelf a', 2],
      [lamp.id, '', '', '', shelf.code, 2],
    ]);
    const dry = await importCounts(user, csv, 'dryRun=true');
    expect(dry.statusCode, dry.body).toBe(200);
    expect((dry.json() as StockImportReport).errors).toEqual([
      { line: 2, path: 'location', message: SI.pathAmbiguous('warehouse / shelf a') },
    ]);
    expect(dry.json()).toMatchObject({ changed: 1 });
    expect((await importCounts(user, csv)).statusCode).toBe(400);
    expect(await state(catalogueId)).toEqual(before);
  });

  it('counts in a shared catalogue from several members at once: every total stays the sum', async () => {
    const owner = await person(server, 'Owner');
    const stockMember = await person(server, 'Counter');
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/catalogues',
      headers: owner.headers,
      payload: { name: 'Shared counts' },
    });
    const catalogueId = created.json().catalogue.id as string;
    await setMember(server, catalogueId, stockMember.id, 'stock');
    const base = `/api/catalogues/${catalogueId}`;
    const shelf = await newLocation(owner, 'Shelf', null, base);
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await server.app.inject({
        method: 'POST',
        url: `${base}/products`,
        headers: owner.headers,
        payload: { name: `Item ${i}`, price: '1.00', stock: '5', description: 'An item' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().product.id);
    }
    const file = (quantity: number) =>
      csvText([
        HEADER,
        ...ids.flatMap((id) => [
          [id, '', '', '', 'Main', quantity],
          [id, '', '', '', 'Shelf', quantity + 1],
        ]),
      ]);
    // Both at once, beside stock changes of the same products.
    const answers = await Promise.all([
      importCounts(owner, file(2), '', `${base}/products`),
      importCounts(stockMember, file(7), '', `${base}/products`),
      ...ids.map((id) =>
        server.app.inject({
          method: 'POST',
          url: `${base}/products/${id}/stock`,
          headers: owner.headers,
          payload: { delta: 1, locationId: shelf.id },
        }),
      ),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    await expectSums(catalogueId);
    // A second import by the same user while one runs waits its turn outside (429).
    const [first, second] = await Promise.all([
      importCounts(owner, file(1), '', `${base}/products`),
      importCounts(owner, file(1), '', `${base}/products`),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual(
      first.statusCode === 429 || second.statusCode === 429 ? [200, 429] : [200, 200],
    );
    await expectSums(catalogueId);
    // A viewer may not count.
    const viewer = await person(server, 'Viewer');
    await setMember(server, catalogueId, viewer.id, 'viewer');
    const before = await state(catalogueId);
    const refused = await importCounts(viewer, file(0), 'dryRun=true', `${base}/products`);
    expect(refused.statusCode).toBe(403);
    expect(await state(catalogueId)).toEqual(before);
  });

  it('writes nothing when a line past the first hundreds of products is refused', async () => {
    const user = await signIn(server);
    const { id: catalogueId } = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const bin = await newLocation(user, 'Bin', null);
    await bulkLoad({ db, dialect: server.database.dialect }, catalogueId, plainProducts(1_100, 5));
    const ids = (await productIdsOf(db, catalogueId)).sort();
    const last = ids.at(-1)!;
    const counted = ids.map((productId, i) => ({
      line: i + 2,
      productId,
      locationId: bin.id,
      quantity: 2,
    }));
    const attempts = [
      {
        // Matched, then gone before the write: its id sorts after every other product's.
        counts: [
          ...counted,
          {
            line: 9_000,
            productId: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
            locationId: bin.id,
            quantity: 1,
          },
        ],
        refused: [{ line: 9_000, reason: 'gone' }],
      },
      {
        counts: [
          ...counted,
          { line: 9_000, productId: last, locationId: catalogueId, quantity: MAX_STOCK },
        ],
        refused: [{ line: 9_000, reason: 'above-max' }],
      },
    ];
    const before = await state(catalogueId);
    for (const { counts, refused } of attempts) {
      const { answer } = await writeCatalogue(
        { db, dialect: server.database.dialect },
        { id: catalogueId, actorId: catalogueId },
        Date.now(),
        async (w) => ({
          unchanged: true,
          answer: { status: 400, body: await setCountedLevels(w, counts) },
        }),
      );
      expect(answer.body).toEqual({ outcome: 'refused', lines: refused });
      expect(await state(catalogueId)).toEqual(before);
    }
  });

  it('marks a product counted down to its reorder point, and clears it counted back up', async () => {
    const { user, shelf, lamp } = await world();
    const markOf = async () =>
      (
        await db
          .selectFrom('products')
          .select(['stock', 'reorder_crossed_at'])
          .where('id', '=', lamp.id)
          .executeTakeFirstOrThrow()
      ).reorder_crossed_at;
    // 10 units, above the catalogue's point of 10 once 2 more are counted on the shelf.
    const up = await importCounts(user, csvText([HEADER, [lamp.id, '', '', '', shelf.code, 8]]));
    expect(up.statusCode, up.body).toBe(200);
    expect(await markOf()).toBeNull();
    const down = await importCounts(user, csvText([HEADER, [lamp.id, '', '', '', shelf.code, 1]]));
    expect(down.statusCode, down.body).toBe(200);
    expect(await markOf()).not.toBeNull();
  });
});

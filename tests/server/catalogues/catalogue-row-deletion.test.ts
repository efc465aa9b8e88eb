import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { PASSWORD } from '../support/accounts.js';
import {
  changes,
  createProductIn,
  must,
  person,
  setMember,
  snapshot,
  type Person,
} from './catalogue-world.js';

/**
 * A catalogue's row deleted by any path (a statement of its own, an account's deletion, the
 * catalogue's) takes everything of it through its foreign keys. Three of them do not cascade:
 * stock levels to their location, a location to its parent, a purchase order to its supplier.
 * PostgreSQL checks those once the statement's cascades have run, so the catalogue's stock held
 * below its default location, its tree and its orders must be gone by then, whichever of the
 * catalogue's cascades runs first.
 */

const server = await build();
const { db } = server.database;

/** Every table but the migrations' own, as the database lists them. */
const tables = (await db.introspection.getTables())
  .map((table) => table.name)
  .filter((name) => !name.startsWith('kysely_'));
/**
 * The tables but SQLite's full-text index's own, whose segments a delete adds to rather than
 * takes from (it merges them later).
 */
const indexedRows = tables.filter((name) => !name.startsWith('product_search_'));

const idOf = (body: unknown, key: string) => (body as Record<string, { id: string }>)[key]!.id;

/** A new shared catalogue of the owner. */
async function newCatalogue(owner: Person, name: string) {
  const json = { name };
  const made = await must(server, owner, { method: 'POST', url: '/api/catalogues', json }, 201);
  return idOf(made.body, 'catalogue');
}

/**
 * Fills a catalogue with all its kinds of rows through the API: products with tags and cost,
 * stock in a tree of locations (moved there, received there by a purchase order, counted there),
 * a posted count and an open one, a supplier, an undone transfer and, when shared, a member and a
 * webhook. Returns the ids of what it holds: none may be named by any row once it is gone.
 */
async function fill(owner: Person, catalogueId: string, helper: Person): Promise<string[]> {
  const base = `/api/catalogues/${catalogueId}`;
  const post = async (url: string, json: object, status = 200) =>
    (await must(server, owner, { method: 'POST', url: `${base}${url}`, json }, status)).body;
  const location = async (name: string, parentId: string | null) =>
    idOf(await post('/locations', { name, parentId }, 201), 'location');

  const warehouse = await location('Warehouse', null);
  const aisle = await location('Aisle', warehouse);
  const bin = await location('Bin', aisle);
  const cup = await createProductIn(server, owner, catalogueId, {
    tags: 'red, blue',
    cost: '1.25',
  });
  const jug = await createProductIn(server, owner, catalogueId, { tags: 'red' });
  const plate = await createProductIn(server, owner, catalogueId);

  await post(`/products/${cup}/stock`, { delta: 12, locationId: bin });
  await post(`/products/${jug}/stock`, { delta: 3, locationId: aisle });
  await post('/stock/transfers', {
    lines: [
      { productId: cup, from: catalogueId, to: warehouse, quantity: 5 },
      { productId: jug, from: catalogueId, to: bin, quantity: 4 },
    ],
  });
  await post('/stock/transfers', { productId: plate, from: catalogueId, to: aisle, quantity: 6 });
  const transfers = (
    await must(
      server,
      owner,
      { method: 'GET', url: `${base}/activity?kind=stock.transferred&limit=1` },
      200,
    )
  ).body as { entries: { id: string }[] };
  await post(`/activity/${transfers.entries[0]!.id}/undo`, {});

  const supplier = idOf(await post('/suppliers', { name: 'Acme' }, 201), 'supplier');
  const order = idOf(
    await post(
      '/purchase-orders',
      {
        supplierId: supplier,
        lines: [
          { productId: cup, quantity: 10, unitCost: 1.5 },
          { productId: plate, quantity: 2, unitCost: 3 },
        ],
      },
      201,
    ),
    'purchaseOrder',
  );
  await must(
    server,
    owner,
    { method: 'PATCH', url: `${base}/purchase-orders/${order}`, json: { status: 'ordered' } },
    200,
  );
  await post(`/purchase-orders/${order}/receipts`, {
    locationId: bin,
    lines: [{ productId: cup, quantity: 7 }],
  });
  const draft = idOf(
    await post('/purchase-orders', { supplierId: supplier, lines: [] }, 201),
    'purchaseOrder',
  );

  const posted = idOf(
    await post('/counts', { scope: { kind: 'location', locationId: aisle } }, 201),
    'count',
  );
  await post(`/counts/${posted}/lines`, { productId: jug, locationId: aisle, counted: 1 });
  await post(`/counts/${posted}/lines`, { productId: cup, locationId: bin, counted: 20 });
  await post(`/counts/${posted}/review`, {});
  await post(`/counts/${posted}/post`, {});
  const open = idOf(await post('/counts', { scope: { kind: 'catalogue' } }, 201), 'count');
  await post(`/counts/${open}/lines`, { productId: plate, locationId: aisle, counted: 2 });

  let webhook: string | undefined;
  if (catalogueId !== owner.id) {
    await setMember(server, catalogueId, helper.id, 'editor');
    const hook = await post(
      '/webhooks',
      { url: 'https://hooks.invalid/in', events: ['stock.moved'] },
      201,
    );
    webhook = idOf(hook, 'webhook');
    // A change by the member: a webhook delivery, and an activity entry of someone else.
    await must(
      server,
      helper,
      { method: 'POST', url: `${base}/products/${plate}/stock`, json: { delta: 1 } },
      200,
    );
  }

  // Stock is held where it was put: in locations other than the default one.
  const held = await db
    .selectFrom('stock_levels')
    .select(['location_id'])
    .where('catalogue_id', '=', catalogueId)
    .where('location_id', '!=', catalogueId)
    .execute();
  expect(new Set(held.map((row) => row.location_id))).toEqual(new Set([warehouse, aisle, bin]));

  const ids = [catalogueId, warehouse, aisle, bin, cup, jug, plate, supplier, order, draft];
  return [...ids, posted, open, ...(webhook ? [webhook] : [])];
}

/** Rows of any table that name one of these ids, table by table. */
async function naming(ids: string[]) {
  const state = await snapshot(server, tables);
  const found: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(state)) {
    const left = rows.filter((row) => ids.some((id) => row.includes(id)));
    if (left.length > 0) found[table] = left;
  }
  return found;
}

/** The three paths, each with a catalogue of its own. */
function deletions() {
  it('by a statement of its own takes all of it, and leaves every other row as it was', async () => {
    const owner = await person(server, 'Direct owner');
    const helper = await person(server, 'Direct helper');
    const other = await newCatalogue(owner, 'Kept');
    const kept = await fill(owner, other, helper);
    const doomed = await newCatalogue(owner, 'Gone');
    // The state the doomed catalogue's contents are added to, and must leave.
    const before = await snapshot(server, indexedRows);
    const gone = await fill(owner, doomed, helper);

    await sql`delete from catalogues where id = ${doomed}`.execute(db);

    expect(await naming(gone)).toEqual({});
    // Every other row is as it was: the other catalogue's, the members', the accounts'. The empty
    // catalogue's own rows went too (its default location, its totals, its membership).
    const diff = changes(before, await snapshot(server, indexedRows));
    for (const table of Object.keys(diff)) {
      diff[table]!.removed = diff[table]!.removed.filter((row) => !row.includes(doomed));
      if (diff[table]!.added.length + diff[table]!.removed.length === 0) delete diff[table];
    }
    expect(diff).toEqual({});
    expect(Object.keys(await naming(kept))).toContain('stock_levels');
  });

  it("by the catalogue's deletion takes all of it", async () => {
    const owner = await person(server, 'App owner');
    const helper = await person(server, 'App helper');
    const doomed = await newCatalogue(owner, 'Gone');
    const gone = await fill(owner, doomed, helper);
    await must(server, owner, { method: 'DELETE', url: `/api/catalogues/${doomed}` }, 200);
    // What the members' streams are told: in their own catalogues' events.
    const { live_events: told = [], ...left } = await naming(gone);
    expect(left).toEqual({});
    expect(
      told.every(
        (row) => row.includes('catalogue.removed') && !row.includes(`"catalogue_id":"${doomed}"`),
      ),
    ).toBe(true);
  });

  it("by its account's deletion takes all of the personal catalogue", async () => {
    const owner = await person(server, 'Leaving owner');
    const helper = await person(server, 'Leaving helper');
    const gone = await fill(owner, owner.id, helper);
    await must(
      server,
      owner,
      { method: 'DELETE', url: '/api/auth/user', json: { password: PASSWORD } },
      200,
    );
    // The account's lock of its confirmation codes is named after it, not after the catalogue.
    const { code_budget_locks: _locks, ...left } = await naming(gone);
    expect(left).toEqual({});
  });
}

describe("a catalogue's row deleted", deletions);

describe('a location', () => {
  it('still holding stock is not deleted by a statement of its own', async () => {
    const owner = await person(server, 'Location owner');
    const catalogueId = await newCatalogue(owner, 'Shelved');
    const base = `/api/catalogues/${catalogueId}`;
    const json = { name: 'Shelf', parentId: null };
    const made = await must(server, owner, { method: 'POST', url: `${base}/locations`, json }, 201);
    const shelf = idOf(made.body, 'location');
    const cup = await createProductIn(server, owner, catalogueId);
    const url = `${base}/products/${cup}/stock`;
    await must(server, owner, { method: 'POST', url, json: { delta: 2, locationId: shelf } }, 200);
    // PostgreSQL checks the key at the commit, SQLite at the statement's end: either refuses.
    await expect(
      db
        .transaction()
        .execute((trx) => trx.deleteFrom('locations').where('id', '=', shelf).execute()),
    ).rejects.toThrow(/foreign key/i);
    const held = await db
      .selectFrom('stock_levels')
      .select('quantity')
      .where('location_id', '=', shelf)
      .execute();
    expect(held).toEqual([{ quantity: 2 }]);
  });
});

/**
 * A database restored from pg_dump (docs/operations.md) has its foreign keys made again in the
 * order of their names: the catalogue's cascade to its locations then runs before the one to its
 * products, and the locations' check before the stock levels go with the products.
 */
async function keysAsRestored() {
  const { rows } = await sql<{ table: string; name: string; definition: string }>`
    select conrelid::regclass::text as table, conname as name,
      pg_get_constraintdef(oid) as definition
    from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace
    order by conrelid::regclass::text, conname`.execute(db);
  await db.transaction().execute(async (trx) => {
    for (const key of rows) {
      await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}`.execute(
        trx,
      );
    }
    for (const key of rows) {
      await sql`alter table ${sql.table(key.table)}
        add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(trx);
    }
  });
}

describe.runIf(server.database.dialect === 'postgres')(
  "a catalogue's row deleted, its keys made again as a restored dump makes them",
  () => {
    beforeAll(keysAsRestored);
    deletions();
  },
);

import { describe, expect, it } from 'vitest';
import {
  L,
  LOCATION_DEPTH_MAX,
  type Location,
} from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { createProduct } from '../support/products.js';

const server = await build();
const user = await signIn(server);

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  who: SignedIn = user,
) =>
  server.app.inject({
    method,
    url: `/api/locations${url}`,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  });

async function create(name: string, parentId: string | null = null, code?: string) {
  const res = await api('POST', '', { name, parentId, ...(code ? { code } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}
const list = async () => ((await api('GET', '')).json() as { locations: Location[] }).locations;
const move = (id: string, parentId: string | null) => api('PATCH', `/${id}`, { parentId });
const expectRefusal = (
  res: { statusCode: number; json(): unknown },
  status: number,
  message: string,
) => {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ message });
};

describe('the default location', () => {
  it('is there from the start, named Main, holding all the stock, and cannot be deleted', async () => {
    const fresh = await signIn(server);
    await createProduct(server, fresh, { stock: '12' });
    await createProduct(server, fresh, { stock: '5' });
    const res = await api('GET', '', undefined, fresh);
    expect(res.statusCode).toBe(200);
    const [main, ...others] = (res.json() as { locations: Location[] }).locations;
    expect(others).toEqual([]);
    expect(main).toMatchObject({ name: 'Main', parentId: null, path: 'Main', isDefault: true });
    expect(main!.units).toBe(17);
    expect(main!.code).toMatch(/^L-[0-9A-F]{6}$/);
    expectRefusal(await api('DELETE', `/${main!.id}`, undefined, fresh), 409, L.isDefault);
    const renamed = await api('PATCH', `/${main!.id}`, { name: 'Back room' }, fresh);
    expect(renamed.json()).toMatchObject({
      message: L.updated,
      location: { name: 'Back room', path: 'Back room', isDefault: true },
    });
  });
});

describe('the tree', () => {
  it('builds paths from the top, in tree order, with a made code for each', async () => {
    const warehouse = await create('Warehouse East');
    const aisle = await create('Aisle 3', warehouse.id);
    const shelf = await create('Shelf B', aisle.id);
    expect(shelf.path).toBe('Warehouse East / Aisle 3 / Shelf B');
    expect(shelf.code).toMatch(/^L-[2-9A-HJ-NP-Z]{6}$/);
    const again = await api('GET', `/${shelf.id}`);
    expect(again.json()).toEqual({ location: shelf });
    const paths = (await list()).map((location) => location.path);
    const at = (path: string) => paths.indexOf(path);
    expect(at('Warehouse East')).toBeLessThan(at('Warehouse East / Aisle 3'));
    expect(at('Warehouse East / Aisle 3')).toBeLessThan(at('Warehouse East / Aisle 3 / Shelf B'));
  });

  it("keeps siblings' names apart whatever the case, but not cousins'", async () => {
    const north = await create('North');
    const south = await create('South');
    const bin = await create('Bin 1', north.id);
    expectRefusal(await api('POST', '', { name: 'bin 1', parentId: north.id }), 409, L.nameTaken);
    expectRefusal(await api('POST', '', { name: 'NORTH' }), 409, L.nameTaken);
    const cousin = await create('Bin 1', south.id);
    // Moving or renaming into a sibling's name is refused too.
    expectRefusal(await move(cousin.id, north.id), 409, L.nameTaken);
    const other = await create('Bin 2', north.id);
    expectRefusal(await api('PATCH', `/${other.id}`, { name: 'BIN 1' }), 409, L.nameTaken);
    // A location keeps its own name in another case.
    const recased = await api('PATCH', `/${bin.id}`, { name: 'BIN 1' });
    expect(recased.json()).toMatchObject({ location: { path: 'North / BIN 1' } });
  });

  it('never moves a location under itself or one of its sub-locations', async () => {
    const top = await create('Cycle top');
    const middle = await create('Cycle middle', top.id);
    const bottom = await create('Cycle bottom', middle.id);
    expectRefusal(await move(top.id, top.id), 409, L.underItself);
    expectRefusal(await move(top.id, middle.id), 409, L.underItself);
    expectRefusal(await move(top.id, bottom.id), 409, L.underItself);
    // Its sub-locations move with it.
    const elsewhere = await create('Cycle elsewhere');
    expect((await move(middle.id, elsewhere.id)).statusCode).toBe(200);
    expect((await api('GET', `/${bottom.id}`)).json()).toMatchObject({
      location: { path: 'Cycle elsewhere / Cycle middle / Cycle bottom' },
    });
    expect((await move(middle.id, null)).json()).toMatchObject({
      location: { parentId: null, path: 'Cycle middle' },
    });
  });

  it(`goes ${LOCATION_DEPTH_MAX} levels deep and no deeper, by a new location or a move`, async () => {
    let parent: Location | null = null;
    const chain: Location[] = [];
    for (let level = 1; level <= LOCATION_DEPTH_MAX; level += 1) {
      parent = await create(`Level ${level}`, parent?.id ?? null);
      chain.push(parent);
    }
    expectRefusal(
      await api('POST', '', { name: 'Too deep', parentId: parent!.id }),
      409,
      L.tooDeep,
    );
    // A location with one below it fits under level 6, not under level 7.
    const pair = await create('Pair');
    await create('Pair child', pair.id);
    expectRefusal(await move(pair.id, chain[6]!.id), 409, L.tooDeep);
    expect((await move(pair.id, chain[5]!.id)).statusCode).toBe(200);
  });

  it('answers 404 for a parent or a location of another catalogue', async () => {
    const other = await signIn(server);
    const theirs = (await api('GET', '', undefined, other)).json() as { locations: Location[] };
    const theirId = theirs.locations[0]!.id;
    expectRefusal(
      await api('POST', '', { name: 'Sneaky', parentId: theirId }),
      404,
      L.parentNotFound,
    );
    expectRefusal(await api('GET', `/${theirId}`), 404, L.notFound);
    expectRefusal(await api('PATCH', `/${theirId}`, { name: 'Mine' }), 404, L.notFound);
    expectRefusal(await api('DELETE', `/${theirId}`), 404, L.notFound);
  });

  it('refuses bad names with the field named, and changes nothing', async () => {
    const before = await list();
    for (const [name, message] of [
      ['', L.nameRequired],
      ['   ', L.nameRequired],
      ['x'.repeat(61), L.nameMax],
      ['Line\nbreak', L.namePrintable],
      [42, L.nameRequired],
    ] as const) {
      const res = await api('POST', '', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message, errors: [{ path: 'name', message }] });
    }
    expect((await api('POST', '', { name: 'Ok', code: 'é' })).json()).toMatchObject({
      message: L.codeAscii,
    });
    expect(await list()).toEqual(before);
    // 60 characters of any script are fine.
    expect((await create('倉'.repeat(60))).name).toHaveLength(60);
  });

  it('refuses a name that would make two paths one, on create and on rename', async () => {
    const top = await create('Cellar');
    const before = await list();
    // "Cellar / Rack" would be this location's path and that of a Rack under Cellar.
    for (const name of ['Cellar / Rack', 'Rack /', '/ Rack', 'a / b / c']) {
      const made = await api('POST', '', { name });
      expect(made.statusCode, name).toBe(400);
      expect(made.json()).toMatchObject({ errors: [{ path: 'name', message: L.nameSeparator }] });
      const renamed = await api('PATCH', `/${top.id}`, { name });
      expect(renamed.statusCode, name).toBe(400);
      expect(renamed.json()).toMatchObject({
        errors: [{ path: 'name', message: L.nameSeparator }],
      });
    }
    expect(await list()).toEqual(before);
    // A slash alone, or without a space on both sides, separates nothing.
    for (const name of ['A/B', 'Rack 1/2', '/', 'In/ out', 'In /out']) {
      expect((await create(name, top.id)).path).toBe(`Cellar / ${name}`);
    }
  });

  it('deletes an empty location, not one with sub-locations', async () => {
    const room = await create('Room to clear');
    const box = await create('Box', room.id);
    expectRefusal(await api('DELETE', `/${room.id}`), 409, L.hasChildren);
    expect((await api('DELETE', `/${box.id}`)).json()).toEqual({ message: L.deleted });
    expect((await api('DELETE', `/${room.id}`)).statusCode).toBe(200);
    expectRefusal(await api('GET', `/${room.id}`), 404, L.notFound);
  });
});

describe('codes', () => {
  it('are unique in the catalogue whatever the case, and never a product’s SKU or barcode', async () => {
    await createProduct(server, user, { sku: 'SKU-LOC-1', barcode: '0012345678905' });
    const given = await create('Coded', null, 'BIN-A1');
    expect(given.code).toBe('BIN-A1');
    expectRefusal(await api('POST', '', { name: 'Again', code: 'bin-a1' }), 409, L.codeTaken);
    expectRefusal(await api('POST', '', { name: 'Sku', code: 'sku-loc-1' }), 409, L.codeIsProduct);
    // The barcode in another of its GTIN forms is the same code.
    expectRefusal(
      await api('POST', '', { name: 'Upc', code: '012345678905' }),
      409,
      L.codeIsProduct,
    );
    const other = await create('Other coded');
    expectRefusal(await api('PATCH', `/${other.id}`, { code: 'Bin-A1' }), 409, L.codeTaken);
    expect((await api('PATCH', `/${given.id}`, { code: 'bin-a1' })).json()).toMatchObject({
      location: { code: 'bin-a1' },
    });
    // Another catalogue may use the same code.
    const stranger = await signIn(server);
    const theirs = await api('POST', '', { name: 'Theirs', code: 'BIN-A1' }, stranger);
    expect(theirs.statusCode).toBe(201);
  });
});

describe('at the same moment', () => {
  it('two moves that would make a cycle: one is refused, the tree stays a tree', async () => {
    const a = await create('Race A');
    const b = await create('Race B');
    const answers = await Promise.all([move(a.id, b.id), move(b.id, a.id)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const after = await list();
    expect(after.filter((location) => [a.id, b.id].includes(location.id))).toHaveLength(2);
  });

  it('two locations of one name under one parent: one is made', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api('POST', '', { name: 'Same name' })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });
});

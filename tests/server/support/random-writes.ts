import { expect } from 'vitest';
import type { SignedIn } from './accounts.js';
import type { TestServer } from './build.js';
import { csvText, importCsv } from './products.js';

/** A small generator with a seed: the same mix of writes on every run, and on both engines. */
function seededRandom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}

/** Where a random mix of writes goes, by whom, and the ids of the products it picks from. */
export interface Target {
  server: TestServer;
  user: SignedIn;
  catalogueId: string;
  ids: string[];
}

/** Imports these CSV rows (header first) and adds the ids of the products it created. */
export async function importInto({ server, user, catalogueId, ids }: Target, rows: string[][]) {
  const res = await importCsv(
    server,
    user,
    csvText(rows),
    '',
    `/api/catalogues/${catalogueId}/products`,
  );
  expect(res.statusCode, res.body).toBeLessThan(300);
  const created = await server.database.db
    .selectFrom('products')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('id', 'not in', ids)
    .execute();
  ids.push(...created.map((row) => row.id));
}

/** Creates a product with these fields in the catalogue and adds its id to `ids`. */
export async function createInto(
  { server, user, catalogueId, ids }: Target,
  fields: Record<string, unknown>,
) {
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/catalogues/${catalogueId}/products`,
    headers: user.headers,
    payload: { description: 'd', ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  ids.push((res.json() as { product: { id: string } }).product.id);
}

/**
 * A random mix of writes by `user` in their personal catalogue (it goes with their account): the
 * generator, the ids it picks from, and `some` to pick one.
 */
export function randomMix(server: TestServer, user: SignedIn & { id: string }, seed: number) {
  const pick = seededRandom(seed);
  const ids: string[] = [];
  const catalogueId = user.id;
  const target: Target = { server, user, catalogueId, ids };
  return {
    catalogueId,
    base: `/api/catalogues/${catalogueId}`,
    pick,
    ids,
    some: () => ids[pick(ids.length)]!,
    target,
  };
}

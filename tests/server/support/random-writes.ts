import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../../src/server/infra/db/schema.js';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import type { SignedIn } from './accounts.js';
import type { TestServer } from './build.js';
import { csvText, importCsv } from './products.js';

/** A small generator with a seed: the same mix of writes on every run, and on both engines. */
function seededRandom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // From the high bits: the low bits of this generator repeat within a few draws (the lowest one
    // alternates), so `pick(2)` would answer 0, 1, 0, 1 and a write's choices would follow a pattern.
    return Math.floor((state / 2 ** 31) * below);
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

/**
 * The product writes every kept total must follow, by `user` in the mix's catalogue: a create, an
 * edit of every counted field, deletes one and two at a time, an import that updates and creates,
 * a change of the catalogue's reorder point; `undo` undoes the latest entry of one of `kinds`.
 * `price` and `stock` draw the values they use.
 */
export function productWrites(mix: ReturnType<typeof randomMix>, user: SignedIn) {
  const { target, pick, ids, some, base } = mix;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    target.server.app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload }),
    });
  const price = () => [0.01, 2.5, 99_999_999.99][pick(3)]!;
  const stock = () => [0, 1, 5, 10, 11, 40, 2_147_483_647][pick(7)]!;
  const writes = {
    create: () =>
      createInto(target, {
        name: `P${pick(1000)}`,
        price: price(),
        stock: stock() % 100,
        ...(pick(2) ? { cost: price() } : {}),
        ...(pick(2) ? { reorderPoint: pick(20) } : {}),
      }),
    edit: () =>
      call('PATCH', `${base}/products/${some()}`, {
        ...(pick(2) ? { price: price() } : {}),
        ...(pick(2) ? { stock: stock() % 100 } : {}),
        ...(pick(2) ? { cost: pick(2) ? price() : null } : {}),
        ...(pick(2) ? { reorderPoint: pick(2) ? pick(20) : null } : {}),
      }),
    delete: async () => {
      const id = ids.splice(pick(ids.length), 1)[0]!;
      await call('DELETE', `${base}/products/${id}`);
    },
    'bulk delete': async () => {
      const gone = ids.splice(pick(ids.length), 2);
      await call('POST', `${base}/products/bulk-delete`, { ids: gone });
    },
    import: async () => {
      await importInto(target, [
        ['id', 'name', 'price', 'stock', 'description', 'cost', 'reorder point'],
        [some(), 'Imported', String(price()), String(stock() % 50), 'u', '1.00', ''],
        ['', 'Imported new', String(price()), String(stock() % 50), 'n', '', '7'],
      ]);
    },
    'catalogue reorder point': () => call('PATCH', base, { reorderPoint: [0, 3, 10, 25][pick(4)] }),
  };
  const undo = async (kinds: string[]) => {
    const kind = kinds[pick(kinds.length)]!;
    const listed = await call('GET', `${base}/activity?kind=${kind}&limit=5`);
    const [entry] = (listed.json() as ActivityResponse).entries;
    if (!entry) return;
    const res = await call('POST', `${base}/activity/${entry.id}/undo`);
    if (res.statusCode < 300 && kind === 'product.deleted') ids.push(entry.product!.id);
  };
  return { price, stock, writes, undo };
}

/** The catalogue's version: a write that changed something bumped it. */
export async function catalogueVersion(db: Kysely<Database>, catalogueId: string) {
  const { version } = await db
    .selectFrom('catalogues')
    .select('version')
    .where('id', '=', catalogueId)
    .executeTakeFirstOrThrow();
  return version;
}

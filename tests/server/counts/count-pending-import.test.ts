import { describe, expect, it } from 'vitest';
import { C, type CountDetail } from '../../../src/shared/schemas/counts/counts.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { makePending } from '../support/pending-imports.js';

/**
 * A product written by an import that is still pending is in no count: it is never one of the
 * places left uncounted, it cannot be counted, no count sheet prints it and posting with the
 * uncounted as 0 leaves its stock alone. The product is made pending by hand: the reads are
 * what is tested.
 */
describe("a pending import's products in counts", async () => {
  const server = await build();
  const owner = await signIn(server);
  const db = server.database.db;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    server.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const create = async (name: string, stock: number) => {
    const res = await call('POST', '/api/products', {
      name,
      price: 10,
      description: 'A lamp',
      stock,
      tags: ['lamps'],
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { product: { id: string } }).product;
  };
  const visible = await create('Visible lamp', 2);
  const staged = await create('Staged lamp', 3);
  const { catalogueId } = await makePending(db, [staged.id]);
  const { id: defaultId } = await db
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .executeTakeFirstOrThrow();

  it.each([
    { kind: 'catalogue' },
    { kind: 'tag', tag: 'lamps' },
    { kind: 'location', locationId: defaultId },
  ])('leaves them out of a $kind count', async (scope) => {
    const started = await call('POST', '/api/counts', { scope });
    expect(started.statusCode, started.body).toBe(201);
    const { id } = (started.json() as { count: { id: string } }).count;

    const detail = (await call('GET', `/api/counts/${id}`)).json() as CountDetail;
    expect(detail.uncounted?.places.map((place) => place.name)).toEqual(['Visible lamp']);
    expect(detail.uncounted?.total).toBe(1);

    const line = await call('POST', `/api/counts/${id}/lines`, {
      productId: staged.id,
      locationId: defaultId,
      counted: 1,
    });
    expect(line.statusCode).toBe(404);
    expect(line.json()).toMatchObject({ message: C.productNotFound });

    const sheet = await call('GET', `/api/counts/${id}/sheet.pdf`);
    expect(sheet.statusCode).toBe(200);

    const csv = await call('GET', `/api/counts/${id}.csv`);
    expect(csv.body).not.toContain('Staged lamp');

    const posted = await call('POST', `/api/counts/${id}/post`, { uncountedAsZero: true });
    expect(posted.statusCode, posted.body).toBe(200);
    const stock = await db
      .selectFrom('products')
      .select(['id', 'stock'])
      .where('id', 'in', [visible.id, staged.id])
      .execute();
    expect(Object.fromEntries(stock.map((row) => [row.id, row.stock]))).toEqual({
      [visible.id]: 0,
      [staged.id]: 3,
    });
    // Back to 2 for the next scope: the visible lamp is counted at its old stock again.
    const again = await call('POST', `/api/products/${visible.id}/stock`, { count: 2 });
    expect(again.statusCode, again.body).toBe(200);
  });
});

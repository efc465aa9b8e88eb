import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_MESSAGES as A } from '../../../src/shared/activity.js';
import type { ActivityEntry, ActivityResponse } from '../../../src/shared/schemas/activity.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { sweepOrphanImages } from '../../../src/server/features/products/orphan-images.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { build } from '../support/build.js';
import { jpeg, png } from '../support/images.js';
import { createProduct, imageFiles, patchProduct } from '../support/products.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
  type Member,
} from '../catalogues/support.js';

const DAY = 24 * 60 * 60 * 1000;

/** Undoing a change within 7 days: stock movements, edits and deletes. */
describe('undo', async () => {
  const server = await build();

  const entries = async (user: Member, base: string, query = '') => {
    const res = await api(server, user, 'GET', `${base}/activity${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ActivityResponse).entries;
  };
  const latest = async (user: Member, base: string, kind: string) =>
    (await entries(user, base, `?kind=${kind}&limit=1`))[0]!;
  const undo = (user: Member, base: string, entry: { id: string }) =>
    api(server, user, 'POST', `${base}/activity/${entry.id}/undo`);
  const message = (res: { json(): unknown }) => (res.json() as { message: string }).message;

  /** A shared catalogue with one product, and the paths of both. */
  async function setUp(fields: Record<string, string> = {}) {
    const owner = await member(server, 'Olga');
    const { id } = await newCatalogue(server, owner);
    const base = `/api/catalogues/${id}`;
    const product = productOf(
      await createIn(server, owner, id, { name: 'Vase', stock: '4', ...fields }),
    );
    const item = `${base}/products/${product.id}`;
    return { owner, id, base, product, item };
  }

  it('records an undo made on the Activity screen as made there, not by the API', async () => {
    const { owner, base, item } = await setUp();
    expect((await api(server, owner, 'POST', `${item}/stock`, { delta: 2 })).statusCode).toBe(200);
    const moved = await latest(owner, base, 'stock.moved');
    const res = await server.app.inject({
      method: 'POST',
      url: `${base}/activity/${moved.id}/undo`,
      headers: { ...owner.headers, 'stockroom-source': 'activity' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { entry: ActivityEntry }).entry.source).toBe('activity');
    expect((await latest(owner, base, 'undo')).source).toBe('activity');
  });

  it('undoes a stock movement with the opposite movement, and refuses to go below 0', async () => {
    const { owner, base, item } = await setUp();
    expect((await api(server, owner, 'POST', `${item}/stock`, { delta: 3 })).statusCode).toBe(200);
    const moved = await latest(owner, base, 'stock.moved');
    expect(moved.undoable).toBe(true);
    const res = await undo(owner, base, moved);
    expect(res.statusCode, res.body).toBe(200);
    const { entry } = res.json() as { entry: ActivityEntry };
    expect(entry).toMatchObject({
      kind: 'undo',
      product: { name: 'Vase' },
      undoable: false,
      undoneBy: null,
      data: { undoes: moved.id, kind: 'stock.moved' },
    });
    const history = await api(server, owner, 'GET', `${item}/movements`);
    type Moves = { movements: { delta: number; source: string; note: string | null }[] };
    const { movements } = history.json() as Moves;
    expect(movements.slice(0, 2).map((m) => [m.source, m.delta, m.note])).toEqual([
      ['adjustment', -3, 'Undo'],
      ['adjustment', 3, null],
    ]);
    const after = await latest(owner, base, 'stock.moved');
    expect(after).toMatchObject({ undoable: false, undoneBy: entry.id });
    expect(message(await undo(owner, base, moved))).toBe('Already undone');
    expect(message(await undo(owner, base, entry))).toBe('This change cannot be undone');

    // +5 then -9 (9 → 0): undoing the +5 would take the stock below 0.
    await api(server, owner, 'POST', `${item}/stock`, { delta: 5 });
    const plus = await latest(owner, base, 'stock.moved');
    await api(server, owner, 'POST', `${item}/stock`, { delta: -9 });
    const refused = await undo(owner, base, plus);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'Cannot undo: stock would go below 0' });
    expect((await latest(owner, base, 'undo')).id).toBe(entry.id);
  });

  it('undoes an edit unless a field it changed changed since, naming them', async () => {
    const { owner, base, item } = await setUp({ sku: 'V-1' });
    const edited = await api(server, owner, 'PATCH', item, {
      price: 4.5,
      stock: 9,
      name: 'Big vase',
    });
    expect(edited.statusCode).toBe(200);
    const edit = await latest(owner, base, 'product.updated');
    expect(Object.keys(edit.changes!)).toEqual(['name', 'price', 'stock']);
    await api(server, owner, 'PATCH', item, { price: 5 });
    await api(server, owner, 'POST', `${item}/stock`, { delta: 1 });
    const refused = await undo(owner, base, edit);
    expect(refused.statusCode).toBe(409);
    expect(message(refused)).toBe('Cannot undo: price, stock changed since');

    await api(server, owner, 'PATCH', item, { price: 4.5, stock: 9 });
    const res = await undo(owner, base, edit);
    expect(res.statusCode, res.body).toBe(200);
    const product = (await api(server, owner, 'GET', item)).json() as { product: Product };
    expect(product.product).toMatchObject({ name: 'Vase', price: 19.99, stock: 4, sku: 'V-1' });
    // A create cannot be undone.
    const created = await latest(owner, base, 'product.created');
    expect(created.undoable).toBe(false);
    expect(message(await undo(owner, base, created))).toBe('This change cannot be undone');
  });

  it('brings a deleted product back with its id, picture and history; not over a taken SKU', async () => {
    const owner = await member(server, 'Olga');
    const created = await createProduct(
      server,
      owner,
      { name: 'Vase', sku: 'V-1' },
      { data: await jpeg() },
    );
    await api(server, owner, 'POST', `/api/products/${created.id}/stock`, { delta: 2 });
    const before = await api(server, owner, 'GET', `/api/products/${created.id}/movements`);
    const deleted = await api(server, owner, 'DELETE', `/api/products/${created.id}`);
    expect(deleted.statusCode).toBe(200);
    const entry = await latest(owner, '/api/products', 'product.deleted');
    expect(entry).toMatchObject({ product: { id: created.id, name: 'Vase' }, undoable: true });
    // Another product took the SKU meanwhile.
    const other = await createProduct(server, owner, { name: 'Jug', sku: 'v-1' });
    const taken = await undo(owner, '/api/products', entry);
    expect(taken.statusCode).toBe(409);
    expect(message(taken)).toBe('Cannot undo: the SKU V-1 is now used by another product');
    await api(server, owner, 'DELETE', `/api/products/${other.id}`);

    const res = await undo(owner, '/api/products', entry);
    expect(res.statusCode, res.body).toBe(200);
    const back = (await api(server, owner, 'GET', `/api/products/${created.id}`)).json() as {
      product: Product;
    };
    expect(back.product).toMatchObject({
      id: created.id,
      name: 'Vase',
      sku: 'V-1',
      stock: 14,
      image: created.image,
    });
    const image = await server.app.inject({ method: 'GET', url: new URL(created.image).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.length).toBeGreaterThan(0);
    const after = await api(server, owner, 'GET', `/api/products/${created.id}/movements`);
    expect(after.json()).toEqual(before.json());
    // Other screens hear of it as of a new product.
    const event = await server.database.db
      .selectFrom('live_events')
      .select(['kind', 'data'])
      .where('catalogue_id', '=', owner.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.kind).toBe('product.created');
    expect((JSON.parse(event.data) as { product: { id: string } }).product.id).toBe(created.id);
  });

  it('restores the history when newer movements took its ids meanwhile (SQLite reuses them)', async () => {
    const owner = await member(server);
    const created = await createProduct(server, owner, { name: 'Mug', stock: '3' });
    await api(server, owner, 'POST', `/api/products/${created.id}/stock`, { delta: 2 });
    type Moves = { movements: { delta: number; oldStock: number; newStock: number }[] };
    const values = (res: { json(): unknown }) =>
      (res.json() as Moves).movements.map(({ delta, oldStock, newStock }) => ({
        delta,
        oldStock,
        newStock,
      }));
    const before = values(await api(server, owner, 'GET', `/api/products/${created.id}/movements`));
    await api(server, owner, 'DELETE', `/api/products/${created.id}`);
    // Its movements had the highest ids: these may get them again.
    await createProduct(server, owner, { name: 'Cup', stock: '1' });
    await createProduct(server, owner, { name: 'Jar', stock: '1' });
    const entry = await latest(owner, '/api/products', 'product.deleted');
    const res = await undo(owner, '/api/products', entry);
    expect(res.statusCode, res.body).toBe(200);
    const after = await api(server, owner, 'GET', `/api/products/${created.id}/movements`);
    expect(values(after)).toEqual(before);
  });

  it('undoes an edit that replaced the picture, unless the picture changed since', async () => {
    const owner = await member(server);
    const created = await createProduct(server, owner, { name: 'Jug' }, { data: await jpeg() });
    const replace = async () => {
      const res = await patchProduct(server, owner, created.id, {}, { data: await png(30, 90) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { product: Product }).product;
    };
    const replaced = await replace();
    expect(replaced.image).not.toBe(created.image);
    const edit = await latest(owner, '/api/products', 'product.updated');
    expect(edit.changes).toEqual({ image: { before: true, after: true } });
    expect(edit.undoable).toBe(true);
    const res = await undo(owner, '/api/products', edit);
    expect(res.statusCode, res.body).toBe(200);
    const back = (await api(server, owner, 'GET', `/api/products/${created.id}`)).json() as {
      product: Product;
    };
    expect(back.product).toMatchObject({
      image: created.image,
      thumbnail: created.thumbnail,
      imageWidth: created.imageWidth,
      imageHeight: created.imageHeight,
    });
    const image = await server.app.inject({ method: 'GET', url: new URL(created.image).pathname });
    expect(image.statusCode).toBe(200);

    // Replaced twice more: the older edit's picture has been replaced since.
    await replace();
    await replace();
    const [newest, older] = await entries(owner, '/api/products', '?kind=product.updated');
    expect(newest!.undoable && older!.undoable).toBe(true);
    const refused = await undo(owner, '/api/products', older!);
    expect(refused.statusCode).toBe(409);
    expect(message(refused)).toBe('Cannot undo: image changed since');
  });

  it("removes a deleted product's picture once its delete can no longer be undone", async () => {
    const owner = await member(server);
    const created = await createProduct(server, owner, { name: 'Urn' }, { data: await jpeg() });
    const key = new URL(created.image).pathname.split('/').at(-1)!.replace('.webp', '');
    await api(server, owner, 'DELETE', `/api/products/${created.id}`);
    const named = (await imageFiles(server)).filter((name) => name.startsWith(key));
    expect(named).toHaveLength(2);
    // The files look as old as the delete (the sweep spares young files).
    const root = path.join(server.dataDir, 'images');
    const then = new Date(server.clock.now() - DAY);
    for (const name of named) await utimes(path.join(root, name.slice(0, 2), name), then, then);
    const repository = new ProductRepository(server.database.db, server.database.dialect);
    const { images } = server.app;
    const early = await sweepOrphanImages(images, repository, server.clock.now() + 6 * DAY);
    expect(early.filter((name) => name.startsWith(key))).toEqual([]);
    const late = await sweepOrphanImages(images, repository, server.clock.now() + 7 * DAY + 1);
    expect(late.filter((name) => name.startsWith(key)).sort()).toEqual(named.sort());
    expect((await imageFiles(server)).filter((name) => name.startsWith(key))).toEqual([]);
  });

  it('refuses to undo an edit recorded with nothing changed (as edits were logged before)', async () => {
    const { owner, id, base, product } = await setUp();
    await server.database.db
      .insertInto('activity_entries')
      .values({
        catalogue_id: id,
        actor_id: owner.id,
        kind: 'product.updated',
        source: 'api',
        product_id: product.id,
        product_name: product.name,
        data: JSON.stringify({ changes: {} }),
        snapshot: null,
        image_key: null,
        undoes: null,
        created_at: server.clock.now(),
      })
      .execute();
    const edit = await latest(owner, base, 'product.updated');
    expect(edit).toMatchObject({ changes: {}, undoable: false });
    const res = await undo(owner, base, edit);
    expect(res.statusCode).toBe(409);
    expect(message(res)).toBe(A.cannotUndo);
  });

  it('refuses after 7 days, by role (403) and to strangers (404)', async () => {
    const { owner, id, base, item } = await setUp();
    const clerk = await member(server, 'Carl');
    const viewer = await member(server, 'Vic');
    await addMember(server, id, clerk, 'stock');
    await addMember(server, id, viewer, 'viewer');
    await api(server, owner, 'POST', `${item}/stock`, { delta: 1 });
    await api(server, owner, 'PATCH', item, { price: 3 });
    const moved = await latest(owner, base, 'stock.moved');
    const edit = await latest(owner, base, 'product.updated');
    expect((await latest(clerk, base, 'product.updated')).undoable).toBe(false);
    expect((await latest(clerk, base, 'stock.moved')).undoable).toBe(true);
    const byClerk = await undo(clerk, base, edit);
    expect(byClerk.statusCode).toBe(403);
    expect(message(byClerk)).toBe(
      'A stock member cannot create, edit or delete products in this catalogue.',
    );
    const byViewer = await undo(viewer, base, moved);
    expect(byViewer.statusCode).toBe(403);
    expect(message(byViewer)).toBe('A viewer cannot adjust stock in this catalogue.');
    const stranger = await member(server);
    expect((await undo(stranger, base, moved)).statusCode).toBe(404);
    // An id no entry could have is an unknown entry too, as other routes treat malformed ids.
    for (const unknown of ['999999999', 'abc', '-1', '1.5', '9'.repeat(24), '9'.repeat(19)]) {
      const res = await undo(owner, base, { id: unknown });
      expect([res.statusCode, res.json()], unknown).toEqual([404, { message: A.entryNotFound }]);
    }

    // Made 7 days ago (moving the clock would end the sessions too).
    await server.database.db
      .updateTable('activity_entries')
      .set({ created_at: server.clock.now() - 7 * DAY })
      .where('id', '=', Number(moved.id))
      .execute();
    expect((await latest(owner, base, 'stock.moved')).undoable).toBe(false);
    const old = await undo(owner, base, moved);
    expect(old.statusCode).toBe(409);
    expect(message(old)).toBe('Too old to undo: changes can be undone for 7 days');
  });

  it('lets exactly one of 10 parallel undos of one entry win', async () => {
    const { owner, base, item } = await setUp();
    await api(server, owner, 'POST', `${item}/stock`, { delta: 3 });
    const moved = await latest(owner, base, 'stock.moved');
    const answers = await Promise.all(Array.from({ length: 10 }, () => undo(owner, base, moved)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(message(res)).toBe('Already undone');
    }
    const product = (await api(server, owner, 'GET', item)).json() as { product: Product };
    expect(product.product.stock).toBe(4);
  });
});

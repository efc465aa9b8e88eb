import { describe, expect, it } from 'vitest';
import { ACTIVITY_MESSAGES as A } from '../../../src/shared/activity.js';
import type { CatalogueRole } from '../../../src/shared/catalogue-roles.js';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import {
  C,
  type Count,
  type CountDetail,
  type CountLine,
} from '../../../src/shared/schemas/counts/counts.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build } from '../support/build.js';
import type { SignedIn } from '../support/accounts.js';
import { createProduct, getProduct } from '../support/products.js';
import { addWebhook } from '../webhooks/support.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
} from '../catalogues/support.js';

const server = await build();

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, payload?: object) =>
  api(server, who, method, url, payload);

async function place(who: SignedIn, name: string, parentId: string | null = null, base = '/api') {
  const res = await call(who, 'POST', `${base}/locations`, { name, parentId });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { location: Location }).location;
}

async function start(who: SignedIn, body: object, base = '/api') {
  const res = await call(who, 'POST', `${base}/counts`, body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { count: Count }).count;
}

const count = (who: SignedIn, base: string, countId: string, line: object) =>
  call(who, 'POST', `${base}/counts/${countId}/lines`, line);

async function detail(who: SignedIn, base: string, countId: string) {
  const res = await call(who, 'GET', `${base}/counts/${countId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CountDetail;
}

/** Puts `quantity` units of a product at a location (it starts in the default one). */
async function stockAt(who: SignedIn, product: Product, locationId: string, quantity: number) {
  const res = await call(who, 'POST', `/api/products/${product.id}/stock`, {
    delta: quantity,
    locationId,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function quantities(who: SignedIn, id: string) {
  const { product } = (await getProduct(server, who, id)).json() as { product: Product };
  return {
    stock: product.stock,
    at: Object.fromEntries((product.locations ?? []).map((held) => [held.path, held.quantity])),
  };
}

describe('starting, listing and reading counts', () => {
  it('starts a count over a location, lists it, and keeps one open count per location scope', async () => {
    const user = await member(server);
    const aisle = await place(user, 'Aisle 1');
    const shelf = await place(user, 'Shelf A', aisle.id);
    const made = await start(user, { scope: { kind: 'location', locationId: aisle.id } });
    expect(made).toMatchObject({
      name: 'Count of Aisle 1',
      scope: { kind: 'location', locationId: aisle.id, path: 'Aisle 1' },
      blind: false,
      status: 'open',
      createdBy: { id: user.id },
      lines: 0,
    });
    const again = await call(user, 'POST', '/api/counts', {
      scope: { kind: 'location', locationId: aisle.id },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: C.scopeBusy });
    // A shelf under it would be counted twice.
    const below = await call(user, 'POST', '/api/counts', {
      scope: { kind: 'location', locationId: shelf.id },
    });
    expect(below.statusCode).toBe(409);
    const unknown = await call(user, 'POST', '/api/counts', {
      scope: { kind: 'location', locationId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await call(user, 'POST', '/api/counts', { scope: { kind: 'shelf' } });
    expect(bad.statusCode).toBe(400);

    server.clock.advance(1000);
    const tagged = await start(user, { name: 'Mugs', scope: { kind: 'tag', tag: 'Mugs' } });
    expect(tagged.scope).toEqual({ kind: 'tag', tag: 'Mugs' });
    const list = (await call(user, 'GET', '/api/counts')).json() as { counts: Count[] };
    expect(list.counts.map((each) => each.id)).toEqual([tagged.id, made.id]);

    const cancelled = await call(user, 'POST', `/api/counts/${made.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await start(user, { scope: { kind: 'location', locationId: shelf.id } })).toMatchObject({
      status: 'open',
    });
    const twice = await call(user, 'POST', `/api/counts/${made.id}/cancel`);
    expect(twice.statusCode).toBe(409);
  });

  it('counts lines: the first count sets expected, a later one replaces or adds, and says who', async () => {
    const owner = await member(server, 'Olga');
    const counter = await member(server, 'Carl');
    const catalogue = await newCatalogue(server, owner);
    await addMember(server, catalogue.id, counter, 'stock');
    const base = `/api/catalogues/${catalogue.id}`;
    const shelf = await place(owner, 'Shelf', null, base);
    const cup = productOf(await createIn(server, owner, catalogue.id, { name: 'Cup', stock: '7' }));
    await call(owner, 'POST', `${base}/stock/transfers`, {
      productId: cup.id,
      from: catalogue.id,
      to: shelf.id,
      quantity: 5,
    });
    const made = await start(owner, { scope: { kind: 'catalogue' } }, base);
    const first = await count(counter, base, made.id, {
      productId: cup.id,
      locationId: shelf.id,
      counted: 4,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as { line: CountLine }).line).toMatchObject({
      productId: cup.id,
      name: 'Cup',
      counted: 4,
      expected: 5,
      variance: -1,
      countedBy: { id: counter.id, name: 'Carl' },
    });
    const later = await count(owner, base, made.id, {
      productId: cup.id,
      locationId: shelf.id,
      counted: 6,
    });
    expect((later.json() as { line: CountLine }).line).toMatchObject({
      counted: 6,
      expected: 5,
      countedBy: { id: owner.id, name: 'Olga' },
    });
    const added = await count(counter, base, made.id, {
      productId: cup.id,
      locationId: shelf.id,
      counted: 2,
      add: true,
    });
    expect((added.json() as { line: CountLine }).line).toMatchObject({ counted: 8, expected: 5 });
    const read = await detail(counter, base, made.id);
    expect(read.count.lines).toBe(1);
    expect(read.lines).toHaveLength(1);
    expect(read.summary).toEqual({
      lines: 1,
      varianceUnits: 3,
      varianceValue: 0,
      differenceValue: 0,
    });
    // The default location still holds 2 Cups nobody counted.
    expect(read.uncounted).toEqual({
      total: 1,
      places: [{ productId: cup.id, name: 'Cup', locationId: catalogue.id, expected: 2 }],
    });
    const viewer = await member(server);
    await addMember(server, catalogue.id, viewer, 'viewer');
    const refused = await count(viewer, base, made.id, {
      productId: cup.id,
      locationId: shelf.id,
      counted: 1,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses lines out of the scope, of unknown products, and of a count no longer open', async () => {
    const user = await member(server);
    const aisle = await place(user, 'Aisle');
    const other = await place(user, 'Other');
    const cup = await createProduct(server, user, { name: 'Cup', stock: '3' });
    const made = await start(user, { scope: { kind: 'location', locationId: aisle.id } });
    const outside = await count(user, '/api', made.id, {
      productId: cup.id,
      locationId: other.id,
      counted: 1,
    });
    expect(outside.statusCode).toBe(409);
    expect(outside.json()).toEqual({ message: C.outOfScope });
    const unknown = await count(user, '/api', made.id, {
      productId: '00000000-0000-4000-8000-000000000000',
      locationId: aisle.id,
      counted: 1,
    });
    expect(unknown.statusCode).toBe(404);
    const negative = await count(user, '/api', made.id, {
      productId: cup.id,
      locationId: aisle.id,
      counted: -1,
    });
    expect(negative.statusCode).toBe(400);
    // The field a counter fills in is "Quantity": the message says so, the number grouped.
    const words = 'Quantity must be a whole number from 0 to 2,147,483,647';
    expect(negative.json()).toEqual({
      message: words,
      errors: [{ path: 'counted', message: words }],
    });
    await call(user, 'POST', `/api/counts/${made.id}/cancel`);
    const closed = await count(user, '/api', made.id, {
      productId: cup.id,
      locationId: aisle.id,
      counted: 1,
    });
    expect(closed.statusCode).toBe(409);
    const tagged = await start(user, { scope: { kind: 'tag', tag: 'glass' } });
    const untagged = await count(user, '/api', tagged.id, {
      productId: cup.id,
      locationId: user.id,
      counted: 1,
    });
    expect(untagged.statusCode).toBe(409);
    const missing = await call(user, 'GET', '/api/counts/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
  });

  it('adds up parallel counters of one line, every count kept', async () => {
    const user = await member(server);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '50' });
    const made = await start(user, { scope: { kind: 'catalogue' } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        count(user, '/api', made.id, {
          productId: cup.id,
          locationId: user.id,
          counted: 1,
          add: true,
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200));
    const read = await detail(user, '/api', made.id);
    expect(read.lines).toMatchObject([{ counted: 20, expected: 50 }]);
    expect(read.count.lines).toBe(1);
  });
});

describe('blind counts', () => {
  it('hide expected from every role but owners and admins until the review', async () => {
    const owner = await member(server);
    const catalogue = await newCatalogue(server, owner);
    const base = `/api/catalogues/${catalogue.id}`;
    const people = { owner } as Partial<Record<CatalogueRole, SignedIn>> as Record<
      CatalogueRole,
      SignedIn
    >;
    for (const role of ['admin', 'editor', 'stock', 'viewer'] as const) {
      const someone = await member(server);
      await addMember(server, catalogue.id, someone, role);
      people[role] = someone;
    }
    const cup = productOf(await createIn(server, owner, catalogue.id, { name: 'Cup', stock: '9' }));
    const made = await start(owner, { scope: { kind: 'catalogue' }, blind: true }, base);
    const counted = await count(people.stock, base, made.id, {
      productId: cup.id,
      locationId: catalogue.id,
      counted: 8,
    });
    const line = (counted.json() as { line: CountLine }).line;
    expect(line.counted).toBe(8);
    expect(line).not.toHaveProperty('expected');
    expect(line).not.toHaveProperty('variance');
    const sees = { owner: true, admin: true, editor: false, stock: false, viewer: false };
    for (const [role, shown] of Object.entries(sees)) {
      const read = await detail(people[role as CatalogueRole], base, made.id);
      expect(read.expectedHidden, role).toBe(!shown);
      expect('expected' in read.lines[0]!, role).toBe(shown);
      expect('summary' in read, role).toBe(shown);
      expect('uncounted' in read, role).toBe(shown);
    }
    const reviewed = await call(people.editor, 'POST', `${base}/counts/${made.id}/review`);
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    expect((reviewed.json() as CountDetail).lines[0]).toMatchObject({ expected: 9, variance: -1 });
    for (const role of Object.keys(sees)) {
      const read = await detail(people[role as CatalogueRole], base, made.id);
      expect(read.lines[0], role).toMatchObject({ expected: 9, counted: 8 });
    }
  });
});

describe('posting', () => {
  it('applies counted − expected, keeping stock moved during the count, as one undoable entry', async () => {
    const user = await member(server);
    const shelf = await place(user, 'Shelf');
    const cup = await createProduct(server, user, { name: 'Cup', stock: '1', cost: '2.50' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '1' });
    await stockAt(user, cup, shelf.id, 10);
    await stockAt(user, jug, shelf.id, 4);
    const made = await start(user, { scope: { kind: 'location', locationId: shelf.id } });
    await count(user, '/api', made.id, { productId: cup.id, locationId: shelf.id, counted: 8 });
    await count(user, '/api', made.id, { productId: jug.id, locationId: shelf.id, counted: 6 });
    // Sold while the shelf was counted: 3 Cups, and a Jug delivered.
    await stockAt(user, cup, shelf.id, -3);
    await stockAt(user, jug, shelf.id, 1);
    const review = (
      await call(user, 'POST', `/api/counts/${made.id}/review`)
    ).json() as CountDetail;
    expect(review.summary).toEqual({
      lines: 2,
      varianceUnits: 0,
      varianceValue: -5,
      differenceValue: 5,
    });
    expect(review.lines.find((line) => line.productId === cup.id)).toMatchObject({
      variance: -2,
      varianceAtCost: -5,
    });
    const posted = await call(user, 'POST', `/api/counts/${made.id}/post`, {});
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ message: C.posted(2), movements: 2 });
    expect(await quantities(user, cup.id)).toEqual({ stock: 6, at: { Main: 1, Shelf: 5 } });
    expect(await quantities(user, jug.id)).toEqual({ stock: 8, at: { Main: 1, Shelf: 7 } });
    const movement = await server.database.db
      .selectFrom('stock_movements')
      .select(['delta', 'reason', 'count_id'])
      .where('product_id', '=', cup.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(movement).toEqual({ delta: -2, reason: 'counted', count_id: made.id });

    // Read-only from now on.
    const late = await count(user, '/api', made.id, {
      productId: cup.id,
      locationId: shelf.id,
      counted: 1,
    });
    expect(late.statusCode).toBe(409);
    expect((await call(user, 'POST', `/api/counts/${made.id}/post`, {})).statusCode).toBe(409);

    const { entries } = (
      await call(user, 'GET', '/api/products/activity?kind=count.posted')
    ).json() as {
      entries: { id: string; undoable: boolean }[];
    };
    expect(entries).toHaveLength(1);
    expect(entries[0]!.undoable).toBe(true);
    const undone = await call(user, 'POST', `/api/products/activity/${entries[0]!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await quantities(user, cup.id)).toEqual({ stock: 8, at: { Main: 1, Shelf: 7 } });
    expect(await quantities(user, jug.id)).toEqual({ stock: 6, at: { Main: 1, Shelf: 5 } });
    expect((await detail(user, '/api', made.id)).count.status).toBe('review');
    // Each movement says which count's posting, or its undo, made it.
    const history = await call(user, 'GET', `/api/products/${cup.id}/movements`);
    const [undoing, posting, sale] = (history.json() as MovementsResponse).movements;
    expect(undoing).toMatchObject({ delta: 2, note: 'Undo', countId: made.id });
    expect(posting).toMatchObject({ delta: -2, reason: 'counted', countId: made.id });
    expect(sale).toMatchObject({ delta: -3, countId: null, purchaseOrderId: null });
  });

  it('counts the places never counted as 0 when told, and leaves them alone otherwise', async () => {
    const user = await member(server);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '4' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '3' });
    const left = await start(user, { scope: { kind: 'catalogue' } });
    await count(user, '/api', left.id, { productId: cup.id, locationId: user.id, counted: 5 });
    await call(user, 'POST', `/api/counts/${left.id}/post`, {});
    expect((await quantities(user, jug.id)).stock).toBe(3);
    expect((await quantities(user, cup.id)).stock).toBe(5);
    const zeroed = await start(user, { scope: { kind: 'catalogue' } });
    await count(user, '/api', zeroed.id, { productId: cup.id, locationId: user.id, counted: 5 });
    const posted = await call(user, 'POST', `/api/counts/${zeroed.id}/post`, {
      uncountedAsZero: true,
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await quantities(user, jug.id)).stock).toBe(0);
    expect((await quantities(user, cup.id)).stock).toBe(5);
  });

  it('posts with no body at all, its one option left out, as review and cancel take none', async () => {
    const user = await member(server);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '2' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '3' });
    const made = await start(user, { scope: { kind: 'catalogue' } });
    await count(user, '/api', made.id, { productId: cup.id, locationId: user.id, counted: 5 });
    const posted = await server.app.inject({
      method: 'POST',
      url: `/api/counts/${made.id}/post`,
      headers: user.headers,
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ message: C.posted(1), movements: 1 });
    // Not counted as 0: uncountedAsZero is false unless sent.
    expect((await quantities(user, jug.id)).stock).toBe(3);
    const wrong = await call(user, 'POST', `/api/counts/${made.id}/post`, { uncountedAsZero: 1 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('uncountedAsZero must be true or false');
  });

  it('refuses an undo that would take a location below 0 (409), changing nothing', async () => {
    const user = await member(server);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '2' });
    const made = await start(user, { scope: { kind: 'catalogue' } });
    await count(user, '/api', made.id, { productId: cup.id, locationId: user.id, counted: 10 });
    await call(user, 'POST', `/api/counts/${made.id}/post`, {});
    // 9 of the 10 found are sold: the 8 the count added cannot be taken back.
    await stockAt(user, cup, user.id, -9);
    const { entries } = (
      await call(user, 'GET', '/api/products/activity?kind=count.posted')
    ).json() as {
      entries: { id: string }[];
    };
    const undo = await call(user, 'POST', `/api/products/activity/${entries[0]!.id}/undo`);
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toEqual({ message: A.belowZero });
    expect((await quantities(user, cup.id)).stock).toBe(1);
    expect((await detail(user, '/api', made.id)).count.status).toBe('posted');
  });

  it('refuses an undo while a count over a location above or below is active (409), changing nothing', async () => {
    const user = await member(server);
    const aisle = await place(user, 'Aisle');
    const shelf = await place(user, 'Shelf', aisle.id);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '0' });
    await stockAt(user, cup, shelf.id, 5);
    const entryOf = async (countId: string) => {
      const { entries } = (
        await call(user, 'GET', '/api/products/activity?kind=count.posted')
      ).json() as { entries: { id: string; data: { countId: string } }[] };
      return entries.find((entry) => entry.data.countId === countId)!.id;
    };
    const postOne = async (locationId: string, counted: number) => {
      const made = await start(user, { scope: { kind: 'location', locationId } });
      await count(user, '/api', made.id, { productId: cup.id, locationId: shelf.id, counted });
      const posted = await call(user, 'POST', `/api/counts/${made.id}/post`, {});
      expect(posted.statusCode, posted.body).toBe(200);
      return made;
    };
    // The aisle's posting, undone while the shelf below it is counted: both would correct it.
    const wide = await postOne(aisle.id, 4);
    const below = await start(user, {
      name: 'Shelf check',
      scope: { kind: 'location', locationId: shelf.id },
    });
    const undo = await call(user, 'POST', `/api/products/activity/${await entryOf(wide.id)}/undo`);
    expect(undo.statusCode, undo.body).toBe(409);
    expect(undo.json()).toEqual({ message: A.countOverlaps('Shelf check') });
    expect(await quantities(user, cup.id)).toEqual({ stock: 4, at: { 'Aisle / Shelf': 4 } });
    expect((await detail(user, '/api', wide.id)).count.status).toBe('posted');
    // The shelf's posting, undone while the aisle above it is counted.
    await call(user, 'POST', `/api/counts/${below.id}/cancel`);
    const narrow = await postOne(shelf.id, 3);
    await start(user, { name: 'Aisle check', scope: { kind: 'location', locationId: aisle.id } });
    const up = await call(user, 'POST', `/api/products/activity/${await entryOf(narrow.id)}/undo`);
    expect(up.statusCode, up.body).toBe(409);
    expect(up.json()).toEqual({ message: A.countOverlaps('Aisle check') });
    expect(await quantities(user, cup.id)).toEqual({ stock: 3, at: { 'Aisle / Shelf': 3 } });
    expect((await detail(user, '/api', narrow.id)).count.status).toBe('posted');
  });

  it('refuses an undo while another count of the same scope is active (409)', async () => {
    const user = await member(server);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '2' });
    const made = await start(user, { scope: { kind: 'catalogue' } });
    await count(user, '/api', made.id, { productId: cup.id, locationId: user.id, counted: 3 });
    await call(user, 'POST', `/api/counts/${made.id}/post`, {});
    await start(user, { scope: { kind: 'catalogue' } });
    const { entries } = (
      await call(user, 'GET', '/api/products/activity?kind=count.posted')
    ).json() as { entries: { id: string }[] };
    const undo = await call(user, 'POST', `/api/products/activity/${entries[0]!.id}/undo`);
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toEqual({ message: A.countScopeBusy });
    expect((await quantities(user, cup.id)).stock).toBe(3);
  });
  it('marks and clears reorder crossings as any stock change, announcing each new one once', async () => {
    const user = await member(server);
    await addWebhook(server, user, user.id, 'https://hooks.example.com/stock', ['reorder.reached']);
    // The catalogue's point is 10: Cup is above it, Jug and Pan at or below it since created.
    const cup = await createProduct(server, user, { name: 'Cup', stock: '12' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '3' });
    const pan = await createProduct(server, user, { name: 'Pan', stock: '2' });
    const marks = async () =>
      Object.fromEntries(
        (
          await server.database.db
            .selectFrom('products')
            .select(['name', 'reorder_crossed_at', 'last_moved_at'])
            .where('catalogue_id', '=', user.id)
            .execute()
        ).map((row) => [
          row.name,
          {
            crossed: row.reorder_crossed_at === null ? null : Number(row.reorder_crossed_at),
            moved: row.last_moved_at === null ? null : Number(row.last_moved_at),
          },
        ]),
      );
    const announced = async () =>
      (
        await server.database.db
          .selectFrom('webhook_deliveries')
          .select('payload')
          .where('catalogue_id', '=', user.id)
          .where('event_type', '=', 'reorder.reached')
          .execute()
      )
        .map((row) => {
          const { data } = JSON.parse(row.payload) as {
            data: { product: { name: string }; stock: number; reorderPoint: number };
          };
          return `${data.product.name} ${data.stock} of ${data.reorderPoint}`;
        })
        .sort();
    const created = server.clock.now();
    const before = await announced();
    expect(before).toEqual(['Jug 3 of 10', 'Pan 2 of 10']);
    server.clock.advance(60_000);
    const postedAt = server.clock.now();
    const made = await start(user, { scope: { kind: 'catalogue' } });
    for (const [product, counted] of [
      [cup, 4],
      [jug, 20],
      [pan, 1],
    ] as const) {
      await count(user, '/api', made.id, { productId: product.id, locationId: user.id, counted });
    }
    const posted = await call(user, 'POST', `/api/counts/${made.id}/post`, {});
    expect(posted.statusCode, posted.body).toBe(200);
    expect(await marks()).toEqual({
      Cup: { crossed: postedAt, moved: postedAt },
      Jug: { crossed: null, moved: postedAt },
      // Still to reorder: its mark keeps the time it crossed, and it is not announced again.
      Pan: { crossed: created, moved: postedAt },
    });
    expect(await announced()).toEqual(['Cup 4 of 10', ...before]);

    server.clock.advance(60_000);
    const { entries } = (
      await call(user, 'GET', '/api/products/activity?kind=count.posted')
    ).json() as { entries: { id: string }[] };
    const undone = await call(user, 'POST', `/api/products/activity/${entries[0]!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    const undoneAt = server.clock.now();
    expect(await marks()).toEqual({
      Cup: { crossed: null, moved: undoneAt },
      Jug: { crossed: undoneAt, moved: undoneAt },
      Pan: { crossed: created, moved: undoneAt },
    });
    expect(await announced()).toEqual(['Cup 4 of 10', 'Jug 3 of 10', ...before]);
  });
});

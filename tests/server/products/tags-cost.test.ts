import { describe, expect, it } from 'vitest';
import { TAG_MAX, TAGS_MAX } from '../../../src/shared/constants.js';
import { V } from '../../../src/shared/messages.js';
import type { Product, ProductListItem } from '../../../src/shared/schemas/products.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { rawMultipart } from '../support/images.js';
import {
  allProducts,
  createProduct,
  exportCsv,
  getSummary,
  listProducts,
  sendBody,
  validFields,
} from '../support/products.js';

describe('product tags and cost', async () => {
  const server = await build();
  const send = (user: SignedIn, method: 'POST' | 'PATCH', url: string, body: object) =>
    server.app.inject({ method, url, headers: user.headers, payload: body });
  const create = async (user: SignedIn, fields: object) => {
    const res = await send(user, 'POST', '/api/products', {
      name: 'Rake',
      price: 10,
      stock: 5,
      description: 'd',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().product as Product;
  };

  it('trims tags, keeps each once (case ignored), and carries them on list items', async () => {
    const user = await signIn(server);
    const product = await create(user, { tags: [' Garden ', 'garden', 'Tools'], cost: 2.5 });
    expect(product).toMatchObject({ tags: ['Garden', 'Tools'], cost: 2.5 });
    const [item] = (await listProducts(server, user)).json().products as ProductListItem[];
    expect(item!.tags).toEqual(['Garden', 'Tools']);
    expect(item).not.toHaveProperty('cost');
    const plain = await createProduct(server, user);
    expect(plain).toMatchObject({ tags: [], cost: null });
  });

  it('takes repeated multipart tags fields; an empty one alone clears them; absent keeps them', async () => {
    const user = await signIn(server);
    const fields = Object.entries(validFields);
    const created = await sendBody(
      server,
      user,
      'POST',
      '/api/products',
      rawMultipart([...fields, ['tags', 'Kitchen'], ['tags', 'Sale'], ['cost', '0']]),
    );
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json().product as Product;
    expect(product).toMatchObject({ tags: ['Kitchen', 'Sale'], cost: 0 });
    const url = `/api/products/${product.id}`;
    const renamed = await sendBody(server, user, 'PATCH', url, rawMultipart([['name', 'New']]));
    expect(renamed.json().product).toMatchObject({ tags: ['Kitchen', 'Sale'], cost: 0 });
    const cleared = await sendBody(
      server,
      user,
      'PATCH',
      url,
      rawMultipart([
        ['tags', ''],
        ['cost', ''],
      ]),
    );
    expect(cleared.json().product).toMatchObject({ tags: [], cost: null });
    const json = await send(user, 'PATCH', url, { tags: ['A'], cost: 1.25 });
    expect(json.json().product).toMatchObject({ tags: ['A'], cost: 1.25 });
    const nulled = await send(user, 'PATCH', url, { cost: null, tags: [] });
    expect(nulled.json().product).toMatchObject({ tags: [], cost: null });
  });

  it('refuses bad tags and costs with a 400 naming the field, and stores nothing', async () => {
    const user = await signIn(server);
    for (const [fields, path, message] of [
      [{ tags: Array.from({ length: TAGS_MAX + 1 }, (_, i) => `t${i}`) }, 'tags', V.tagsInvalid],
      [{ tags: ['x'.repeat(TAG_MAX + 1)] }, 'tags.0', V.tagInvalid],
      [{ tags: ['ok', '  '] }, 'tags.1', V.tagInvalid],
      [{ tags: 'Garden' }, 'tags', V.tagsInvalid],
      [{ tags: [5] }, 'tags.0', V.tagsInvalid],
      [{ cost: -1 }, 'cost', V.costNegative],
      [{ cost: 1.234 }, 'cost', V.costDecimals],
      [{ cost: 'cheap' }, 'cost', V.costInvalid],
      [{ cost: 100_000_000 }, 'cost', V.costMax],
    ] as const) {
      const res = await send(user, 'POST', '/api/products', { ...validFields, ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().errors[0], JSON.stringify(fields)).toEqual({ path, message });
    }
    expect(await allProducts(server, user)).toEqual([]);
    const longest = await create(user, {
      tags: Array.from({ length: TAGS_MAX }, (_, i) => `${i}`.padEnd(TAG_MAX, 'x')),
    });
    expect(longest.tags).toHaveLength(TAGS_MAX);
  });

  it('filters the list, the summary and the export by tag, case ignored', async () => {
    const user = await signIn(server);
    const rake = await create(user, { name: 'Rake', tags: ['Garden'], stock: 3, price: 10 });
    const hose = await create(user, { name: 'Hose', tags: ['garden', 'Water'], stock: 0 });
    await create(user, { name: 'Pan', tags: ['Kitchen'] });
    const other = await signIn(server);
    await create(other, { name: 'Theirs', tags: ['Garden'] });

    const names = async (query: string) =>
      (await allProducts(server, user, `sort=name&${query}`)).map((product) => product.name);
    expect(await names('tag=GARDEN')).toEqual(['Hose', 'Rake']);
    expect(await names('tag=garden&stock=out')).toEqual(['Hose']);
    expect(await names('tag=garden&q=rak')).toEqual(['Rake']);
    expect(await names('tag=garden&q=ra')).toEqual(['Rake']);
    expect(await names('tag=garden&limit=1')).toEqual(['Hose', 'Rake']);
    expect(await names('tag=nothing')).toEqual([]);
    const summary = (await getSummary(server, user, 'tag=Garden')).json();
    expect(summary).toEqual({ count: 2, units: 3, value: 30, toReorder: 2 });
    const csv = (await exportCsv(server, user, 'tag=garden')).body;
    expect(csv).toContain(rake.id);
    expect(csv).toContain(hose.id);
    expect(csv).toContain('garden; Water');
    expect(csv).not.toContain('Pan');
    const bad = await listProducts(server, user, `tag=${'x'.repeat(TAG_MAX + 1)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: V.tagFilterInvalid });
  });

  it('adds valueAtCost to the summary when a product has a cost, exact to the cent', async () => {
    const user = await signIn(server);
    await create(user, { price: 0.1, stock: 3 });
    expect((await getSummary(server, user)).json()).toEqual({
      count: 1,
      units: 3,
      value: 0.3,
      toReorder: 1,
    });
    await create(user, { price: 0.2, stock: 7, cost: 0.07, tags: ['Cheap'] });
    await create(user, { price: 1, stock: 2, cost: 0 });
    expect((await getSummary(server, user)).json()).toEqual({
      count: 3,
      units: 12,
      value: 3.7,
      valueAtCost: 0.49,
      toReorder: 3,
    });
    expect((await getSummary(server, user, 'tag=cheap&q=rake')).json()).toEqual({
      count: 1,
      units: 7,
      value: 1.4,
      valueAtCost: 0.49,
      toReorder: 1,
    });
  });
});

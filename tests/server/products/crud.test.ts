import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build } from '../support/build.js';
import { jpeg, png } from '../support/images.js';
import {
  createProduct,
  fetchImage,
  getProduct,
  imageFiles,
  patchProduct,
  postProduct,
  productCount,
  validFields,
  deleteProduct,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('products CRUD', async () => {
  const server = await build();
  const user = await signIn(server);
  const get = (id: string) => getProduct(server, user, id);

  it('creates a product from a multipart form and answers {message, product}', async () => {
    const res = await postProduct(server, user, validFields, { data: await jpeg() });
    expect(res.statusCode).toBe(201);
    const { message, product } = res.json();
    expect(message).toBe('Product created');
    expect(product).toEqual({
      id: expect.stringMatching(uuid),
      name: 'Desk lamp',
      price: 19.99,
      stock: 12,
      description: 'A lamp for the desk',
      active: true,
      image: expect.stringMatching(/^http:\/\/stockroom\.test\/api\/images\/[0-9a-f]{32}\.webp$/),
      thumbnail: expect.stringMatching(/^http:\/\/stockroom\.test\/api\/images\/.+-thumb\.webp$/),
      // The stored image's size: the 64x48 upload is under every bound.
      imageWidth: 64,
      imageHeight: 48,
      sku: null,
      barcode: null,
      tags: [],
      cost: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      reorderPoint: null,
      reorderQuantity: null,
    });
    // Price and stock are JSON numbers, not strings.
    expect(res.body).toContain('"price":19.99,"stock":12');
  });

  it('reads one product with every field, and where its stock is', async () => {
    const created = await createProduct(server, user, { name: 'Chair' });
    const res = await get(created.id);
    expect(res.statusCode).toBe(200);
    const { product } = res.json() as { product: Product };
    const main = { locationId: expect.any(String), path: 'Main', quantity: created.stock };
    expect(product).toEqual({ ...created, locations: [main], suppliers: [] });
  });

  it('gives a product without an image the placeholder picture', async () => {
    const product = await createProduct(server, user);
    expect(product.image).toMatch(/^http:\/\/stockroom\.test\/api\/images\/placeholder-\w+\.svg$/);
    expect(product.thumbnail).toBe(product.image);
    expect([product.imageWidth, product.imageHeight]).toEqual([null, null]);
    const res = await fetchImage(server, product.image);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('<svg');
  });

  it('serves stored images as cacheable WebP', async () => {
    const product = await createProduct(server, user, {}, { data: await png(2000, 1000) });
    const main = await fetchImage(server, product.image);
    expect(main.statusCode).toBe(200);
    expect(main.headers['content-type']).toBe('image/webp');
    expect(main.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(main.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(main.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 1600,
      height: 800,
    });
    const thumb = await fetchImage(server, product.thumbnail);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 480 });
  });

  it('answers a JSON 404 for an image that does not exist', async () => {
    for (const name of ['0123456789abcdef0123456789abcdef.webp', '..%2F..%2Fsecret.key', 'x.png']) {
      const res = await server.app.inject({ method: 'GET', url: `/api/images/${name}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
  });

  it('updates some fields and keeps the others and the image', async () => {
    const created = await createProduct(server, user, {}, { data: await jpeg() });
    server.clock.advance(60_000);
    const res = await patchProduct(server, user, created.id, { price: '5', stock: '0' });
    expect(res.statusCode).toBe(200);
    const { message, product } = res.json();
    expect(message).toBe('Product updated');
    expect(product).toEqual({
      ...created,
      price: 5,
      stock: 0,
      updatedAt: new Date(server.clock.now()).toISOString(),
    });
    // Without stock it is nowhere.
    expect((await get(created.id)).json().product).toEqual({
      ...product,
      locations: [],
      suppliers: [],
    });
  });

  it('replaces the image: a new URL, the old files kept while the edit can be undone', async () => {
    const created = await createProduct(server, user, {}, { data: await jpeg() });
    const before = await imageFiles(server);
    const res = await patchProduct(server, user, created.id, {}, { data: await png(30, 90) });
    expect(res.statusCode).toBe(200);
    const { product } = res.json();
    expect(product.image).not.toBe(created.image);
    // The recorded size is the new image's.
    expect([product.imageWidth, product.imageHeight]).toEqual([30, 90]);
    expect(product.thumbnail).not.toBe(created.thumbnail);
    expect(product.name).toBe(created.name);
    expect((await fetchImage(server, product.image)).statusCode).toBe(200);
    // The orphan sweep removes the old files once the edit can no longer be undone (7 days).
    expect((await fetchImage(server, created.image)).statusCode).toBe(200);
    expect((await imageFiles(server)).length).toBe(before.length + 2);
  });

  it('adds an image to a product that had none', async () => {
    const created = await createProduct(server, user);
    const res = await patchProduct(server, user, created.id, {}, { data: await jpeg() });
    expect(res.json().product.image).toMatch(/[0-9a-f]{32}\.webp$/);
  });

  it('accepts JSON bodies for create and update', async () => {
    const create = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: { name: 'Pen', price: 1.5, stock: 3, description: 'Blue ink' },
    });
    expect(create.statusCode).toBe(201);
    const { id } = create.json().product;
    const update = await server.app.inject({
      method: 'PATCH',
      url: `/api/products/${id}`,
      headers: user.headers,
      payload: { description: 'Red ink' },
    });
    expect(update.statusCode).toBe(200);
    expect(update.json().product).toMatchObject({
      name: 'Pen',
      price: 1.5,
      description: 'Red ink',
    });
  });

  it('never stores fields the API does not own', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: { ...validFields, id: 'mine', active: false, owner_id: 'x', createdAt: 'then' },
    });
    expect(res.statusCode).toBe(201);
    const { product } = res.json();
    expect(product.id).toMatch(uuid);
    expect(product.active).toBe(true);
    expect(product.createdAt).toBe(new Date(server.clock.now()).toISOString());
  });

  it('deletes the row; its files stay while the delete can be undone', async () => {
    const created = await createProduct(server, user, {}, { data: await jpeg() });
    const files = await imageFiles(server);
    const rows = await productCount(server);
    const res = await deleteProduct(server, user, created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your product has been deleted.' });
    expect((await get(created.id)).statusCode).toBe(404);
    expect(await productCount(server)).toBe(rows - 1);
    // The orphan sweep removes them once 7 days have passed (tests/server/activity/undo.test.ts).
    expect(await imageFiles(server)).toHaveLength(files.length);
    const again = await deleteProduct(server, user, created.id);
    expect(again.statusCode).toBe(404);
  });

  it('answers 404 for unknown and malformed ids, never a 500', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', "x' or 1=1"]) {
      const url = `/api/products/${encodeURIComponent(id)}`;
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const res = await server.app.inject({ method, url, headers: user.headers, payload: {} });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual({ message: 'Product not found' });
      }
    }
  });

  it('documents the routes, the multipart and the JSON body apart, in the OpenAPI description', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/products', '/api/products/{id}', '/api/images/{name}']),
    );
    for (const [path, method] of [
      ['/api/products', 'post'],
      ['/api/products/{id}', 'patch'],
    ] as const) {
      const { content } = doc.paths[path][method].requestBody;
      expect(Object.keys(content)).toEqual(['multipart/form-data', 'application/json']);
      const form = content['multipart/form-data'].schema.properties;
      const json = content['application/json'].schema.properties;
      // A file only in the form; in JSON, numbers are numbers.
      expect(form.image).toMatchObject({ type: 'string', format: 'binary' });
      expect(json.image).toBeUndefined();
      expect(form.price).toMatchObject({ type: 'string', pattern: expect.any(String) });
      expect(json.price).toMatchObject({ type: 'number', minimum: 0.01, maximum: 99999999.99 });
      expect(json.stock).toMatchObject({ type: 'integer', minimum: 0, maximum: 2147483647 });
      for (const fields of [form, json]) {
        expect(fields.name).toMatchObject({ type: 'string', maxLength: 200 });
        expect(fields.description).toMatchObject({ type: 'string', maxLength: 5000 });
      }
    }
    // The picture's real media types, as a file.
    const picture = doc.paths['/api/images/{name}'].get.responses['200'].content;
    expect(picture).toEqual({
      'image/webp': { schema: { type: 'string', format: 'binary' } },
      'image/svg+xml': { schema: { type: 'string', format: 'binary' } },
    });
    // One named shape per shared shape, referred to where it appears.
    const { schemas } = doc.components;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['Product', 'ProductListItem', 'User', 'Error', 'ValidationError']),
    );
    expect(schemas.Product.properties).toMatchObject({
      id: { type: 'string', format: 'uuid' },
      image: { type: 'string', format: 'uri' },
      createdAt: { type: 'string', format: 'date-time' },
    });
    expect(schemas.User.properties.email).toMatchObject({ format: 'email' });
    expect(doc.paths['/api/products/{id}'].get.responses['200'].content).toEqual({
      'application/json': {
        schema: expect.objectContaining({
          properties: { product: { $ref: '#/components/schemas/Product' } },
        }),
      },
    });
    // The error shape is written once, not once per answer.
    const text = JSON.stringify(doc.paths);
    expect(text).not.toContain('"errors"');
    expect(doc.servers).toEqual([expect.objectContaining({ url: server.config.publicUrl })]);
  });

  it('requires a signed-in user on every route', async () => {
    const created = await createProduct(server, user);
    const routes = [
      ['GET', '/api/products'],
      ['POST', '/api/products'],
      ['GET', `/api/products/${created.id}`],
      ['PATCH', `/api/products/${created.id}`],
      ['DELETE', `/api/products/${created.id}`],
    ] as const;
    for (const [method, url] of routes) {
      const res = await server.app.inject({ method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('money', async () => {
  const server = await build();
  const user = await signIn(server);

  it.each(['0.01', '19.99', '1234567.89', '0.10', '99999999.99', '7'])(
    '%s round-trips exactly',
    async (price) => {
      const product = await createProduct(server, user, { price });
      expect(product.price).toBe(Number(price));
      const res = await getProduct(server, user, product.id);
      expect(res.body).toContain(`"price":${Number(price)},`);
      const row = await server.database.db
        .selectFrom('products')
        .select('price_cents')
        .where('id', '=', product.id)
        .executeTakeFirstOrThrow();
      expect(row.price_cents).toBe(Math.round(Number(price) * 100));
    },
  );

  it('keeps a JSON number price exact too', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: { ...validFields, price: 1234567.89 },
    });
    expect(res.json().product.price).toBe(1234567.89);
  });
});

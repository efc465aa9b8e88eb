import { describe, expect, it } from 'vitest';
import { V } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { jpeg, rawMultipart } from '../support/images.js';
import {
  createProduct,
  patchProduct,
  postProduct,
  sendBody,
  storedState,
  validFields,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

/** Each case: the form fields sent, the failing field and its message (messages.ts), word for word. */
const cases: [string, Record<string, string | undefined>, string, string][] = [
  ['name missing', { name: undefined }, 'name', 'Name is required'],
  ['name blank', { name: '   ' }, 'name', 'Name is required'],
  ['price missing', { price: undefined }, 'price', 'Price is required'],
  ['price blank', { price: '' }, 'price', 'Price is required'],
  ['price not a number', { price: 'abc' }, 'price', 'The price of the product is required'],
  ['price zero', { price: '0' }, 'price', 'Price must be greater than 0'],
  ['price below a cent', { price: '0.001' }, 'price', 'Price can have at most 2 decimals'],
  ['price negative', { price: '-5' }, 'price', 'Price must be greater than 0'],
  ['stock missing', { stock: undefined }, 'stock', 'Stock is required'],
  ['stock not a number', { stock: 'many' }, 'stock', 'The stock of the product is required'],
  // 0 is allowed: a negative stock is refused in those words, whichever minus sign it is typed with.
  ['stock negative', { stock: '-1' }, 'stock', 'Stock cannot be negative'],
  ['stock with a minus sign', { stock: '\u22125' }, 'stock', 'Stock cannot be negative'],
  ['stock fractional', { stock: '1.5' }, 'stock', 'Stock must be a whole number'],
  ['description missing', { description: undefined }, 'description', 'Description is required'],
  ['description blank', { description: '' }, 'description', 'Description is required'],
  // PostgreSQL cannot store a NUL: a 400, not the database's error (500 before).
  ['name with a NUL', { name: 'a\u0000b' }, 'name', V.textNul],
  ['description with a NUL', { description: '\u0000' }, 'description', V.textNul],
];

const fieldsOf = (changes: Record<string, string | undefined>) =>
  Object.fromEntries(
    Object.entries({ ...validFields, ...changes }).filter(([, value]) => value !== undefined),
  ) as Record<string, string>;

describe('product validation', async () => {
  const server = await build();
  const user = await signIn(server);

  it.each(cases)('create, multipart: %s', async (_case, changes, path, message) => {
    const res = await postProduct(server, user, fieldsOf(changes), { data: await jpeg() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, errors: [{ path, message }] });
  });

  it.each(cases)('create, JSON: %s', async (_case, changes, path, message) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: fieldsOf(changes),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, errors: [{ path, message }] });
  });

  it('lists every failing field, the first one on top', async () => {
    const res = await postProduct(server, user, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Name is required',
      errors: [
        { path: 'name', message: 'Name is required' },
        { path: 'price', message: 'Price is required' },
        { path: 'stock', message: 'Stock is required' },
        { path: 'description', message: 'Description is required' },
      ],
    });
  });

  // The spec's form and rules order the fields Name, Price, Stock, (Image), Description; ours follow.
  it("orders the failing fields as the spec's form does, multipart and JSON alike", async () => {
    const expected = {
      message: 'Price is required',
      errors: [
        { path: 'price', message: 'Price is required' },
        { path: 'stock', message: 'Stock is required' },
        { path: 'description', message: 'Description is required' },
      ],
    };
    const multipart = await postProduct(server, user, { name: 'n' });
    expect(multipart.statusCode).toBe(400);
    expect(multipart.json()).toEqual(expected);
    const json = await server.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: user.headers,
      payload: { name: 'n' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(expected);
  });

  it("orders an edit's failing fields the same way, ours after the spec's", async () => {
    const product = await createProduct(server, user);
    const res = await server.app.inject({
      method: 'PATCH',
      url: `/api/products/${product.id}`,
      headers: user.headers,
      payload: { cost: 'x', tags: 'x', description: '', stock: 'many', price: '0', name: ' ' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((error: { path: string }) => error.path)).toEqual([
      'name',
      'price',
      'stock',
      'description',
      'tags',
      'cost',
    ]);
  });

  it('accepts a stock of 0 in the API', async () => {
    const product = await createProduct(server, user, { stock: '0' });
    expect(product.stock).toBe(0);
  });

  it('update: every field is optional, but a field that is sent is checked', async () => {
    const product = await createProduct(server, user);
    const empty = await patchProduct(server, user, product.id, {});
    expect(empty.statusCode).toBe(200);
    for (const [, changes, path, message] of cases.filter(([, c]) =>
      Object.values(c).every((value) => value !== undefined),
    )) {
      const res = await patchProduct(server, user, product.id, changes as Record<string, string>);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, errors: [{ path, message }] });
    }
  });

  it('refuses unknown and repeated form fields', async () => {
    const unknown = await postProduct(server, user, { ...validFields, owner_id: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      message: 'Unknown form field',
      errors: [{ path: 'owner_id', message: 'Unknown form field' }],
    });

    const fileElsewhere = await postProduct(server, user, validFields, {
      field: 'avatar',
      data: await jpeg(),
    });
    expect(fileElsewhere.statusCode).toBe(400);
    expect(fileElsewhere.json().errors).toEqual([
      { path: 'avatar', message: 'Unknown form field' },
    ]);

    const body = rawMultipart([['name', 'a'], ['name', 'b'], ...Object.entries(validFields)]);
    const repeated = await sendBody(server, user, 'POST', '/api/products', body);
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().message).toBe('Each form field may be sent only once');
  });

  it('ignores an empty file input and a text `image` field, as browsers send them', async () => {
    const res = await postProduct(server, user, { ...validFields, image: 'null' });
    expect(res.statusCode).toBe(201);
    // Exactly what a browser sends for <input type="file"> with nothing chosen.
    const body = rawMultipart(
      Object.entries(validFields),
      '--BOUNDARY\r\nContent-Disposition: form-data; name="image"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n',
    );
    const empty = await sendBody(server, user, 'POST', '/api/products', body);
    expect(empty.statusCode).toBe(201);
    expect(empty.json().product.image).toMatch(/placeholder/);
  });

  /** A POST /api/products with this content type and raw body. */
  const postRaw = (contentType: string, payload: string) =>
    sendBody(server, user, 'POST', '/api/products', {
      headers: { 'content-type': contentType },
      payload,
    });

  it('answers malformed and cut-off multipart bodies with a 400', async () => {
    const bodies = [
      '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nLamp', // no closing boundary
      '--abc\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n\xff\xd8\xff',
      'garbage',
    ];
    for (const payload of bodies) {
      const res = await postRaw('multipart/form-data; boundary=abc', payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({ message: 'The form data is not valid' });
    }
    // A part without a name is skipped by the parser; the form then lacks every field.
    const nameless = await postRaw(
      'multipart/form-data; boundary=abc',
      '--abc\r\nx: y\r\n\r\n--abc--',
    );
    expect(nameless.statusCode).toBe(400);
    expect((await postRaw('multipart/form-data', 'x')).statusCode).toBe(400);
  });

  it('refuses other body types and non-object JSON', async () => {
    expect((await postRaw('application/x-www-form-urlencoded', 'name=x')).statusCode).toBe(415);
    const array = await postRaw('application/json', '[1,2]');
    expect(array.statusCode).toBe(400);
    expect(array.json()).toEqual({ message: 'The request body is required' });
  });

  it('leaves no row and no file behind after a refusal', async () => {
    const before = await storedState(server);
    const res = await postProduct(
      server,
      user,
      { ...validFields, price: 'x' },
      { data: await jpeg() },
    );
    expect(res.statusCode).toBe(400);
    expect(await storedState(server)).toEqual(before);
  });
});

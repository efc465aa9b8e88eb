import { sql } from 'kysely';
import { IMPORT_MAX_ROWS } from '../../../src/shared/constants.js';
import { readdir } from 'node:fs/promises';
import { expect } from 'vitest';
import path from 'node:path';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import type { Product, ProductListItem } from '../../../src/shared/schemas/products.js';
import type { DB } from '../../../src/server/infra/db/handle.js';
import type { TestServer } from './build.js';
import { multipart, type FilePart } from './images.js';
import type { SignedIn } from './accounts.js';

/** A well-formed product id that no product has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export const validFields = {
  name: 'Desk lamp',
  price: '19.99',
  stock: '12',
  description: 'A lamp for the desk',
};

type Body = { headers: Record<string, string>; payload: Buffer | string };

/** Sends a prepared body (see multipart and rawMultipart) as the user. */
export function sendBody(
  server: TestServer,
  user: SignedIn,
  method: 'POST' | 'PATCH',
  url: string,
  body: Body,
) {
  return server.app.inject({
    method,
    url,
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
}

/** POST /api/products as multipart. */
export const postProduct = async (
  server: TestServer,
  user: SignedIn,
  fields: Record<string, string> = validFields,
  ...files: FilePart[]
) => sendBody(server, user, 'POST', '/api/products', await multipart(fields, ...files));

/** PATCH /api/products/{id} as multipart. */
export const patchProduct = async (
  server: TestServer,
  user: SignedIn,
  id: string,
  fields: Record<string, string>,
  ...files: FilePart[]
) => sendBody(server, user, 'PATCH', `/api/products/${id}`, await multipart(fields, ...files));

export const getProduct = (server: TestServer, user: SignedIn, id: string) =>
  server.app.inject({ method: 'GET', url: `/api/products/${id}`, headers: user.headers });

export const deleteProduct = (server: TestServer, user: SignedIn, id: string) =>
  server.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers: user.headers });

/** Creates a product and returns it, failing loudly if the API refuses. */
export async function createProduct(
  server: TestServer,
  user: SignedIn,
  fields: Partial<typeof validFields> & { sku?: string; barcode?: string; cost?: string } = {},
  ...files: FilePart[]
): Promise<Product> {
  const res = await postProduct(server, user, { ...validFields, ...fields }, ...files);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { product: Product }).product;
}

/** Every file under a folder and its sub-folders, by name. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** Every file under DATA_DIR/images, temporary ones included. */
export const imageFiles = (server: TestServer) => filesUnder(path.join(server.dataDir, 'images'));

export async function productCount(server: TestServer): Promise<number> {
  const rows = await server.database.db.selectFrom('products').select('id').execute();
  return rows.length;
}

/** What a request must leave untouched when refused: the rows and the image files. */
export const storedState = async (server: TestServer) => ({
  rows: await productCount(server),
  files: await imageFiles(server),
});

/** The stored file behind an image URL, fetched through the API. */
export async function fetchImage(server: TestServer, url: string) {
  return server.app.inject({ method: 'GET', url: new URL(url).pathname });
}

/** A multipart body carrying a CSV file in the field `file` (or another field). */
async function csvBody(csv: string | Buffer, field = 'file', filename = 'products.csv') {
  return multipart({}, { field, data: Buffer.from(csv), filename, contentType: 'text/csv' });
}

/**
 * POST /api/products/import with a CSV file; `query` like 'dryRun=true'; `base` another
 * catalogue's products (`/api/catalogues/{id}/products`).
 */
export const importCsv = async (
  server: TestServer,
  user: SignedIn,
  csv: string | Buffer,
  query = '',
  base = '/api/products',
) =>
  sendBody(server, user, 'POST', `${base}/import${query ? `?${query}` : ''}`, await csvBody(csv));

/** GET /api/products/export.csv; `query` like 'sort=name&stock=low'. */
export const exportCsv = (server: TestServer, user: SignedIn, query = '') =>
  server.app.inject({
    method: 'GET',
    url: `/api/products/export.csv${query ? `?${query}` : ''}`,
    headers: user.headers,
  });

/** POST /api/products/{id}/stock with a JSON body. */
export const adjustStock = (server: TestServer, user: SignedIn, id: string, body: object) =>
  server.app.inject({
    method: 'POST',
    url: `/api/products/${id}/stock`,
    headers: user.headers,
    payload: body,
  });

/** GET /api/products/{id}/movements; `query` like 'limit=5'. */
export const getMovements = (server: TestServer, user: SignedIn, id: string, query = '') =>
  server.app.inject({
    method: 'GET',
    url: `/api/products/${id}/movements${query ? `?${query}` : ''}`,
    headers: user.headers,
  });

/** A page of a product's movements, which must be there. */
export async function readMovements(server: TestServer, user: SignedIn, id: string, query = '') {
  const res = await getMovements(server, user, id, query);
  if (res.statusCode !== 200) throw new Error(`movements failed: ${res.statusCode} ${res.body}`);
  return res.json() as MovementsResponse;
}

/** POST /api/products/bulk-delete. */
export const bulkDelete = (server: TestServer, user: SignedIn, body: unknown) =>
  server.app.inject({
    method: 'POST',
    url: '/api/products/bulk-delete',
    headers: user.headers,
    payload: body as object,
  });

/** GET /api/products/lookup?code=… */
export const lookupCode = (server: TestServer, user: SignedIn, code: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/products/lookup?code=${encodeURIComponent(code)}`,
    headers: user.headers,
  });

/** GET /api/products?… (the list) and GET /api/products/summary?… */
export const listProducts = (server: TestServer, user: SignedIn, query = '') =>
  server.app.inject({ method: 'GET', url: `/api/products?${query}`, headers: user.headers });
export const getSummary = (server: TestServer, user: SignedIn, query = '') =>
  server.app.inject({
    method: 'GET',
    url: `/api/products/summary?${query}`,
    headers: user.headers,
  });

/** Every product of the user, through the list (newest first), following cursors. */
export async function allProducts(server: TestServer, user: SignedIn, query = '') {
  const products: ProductListItem[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', '100');
    if (cursor) params.set('cursor', cursor);
    const res = await listProducts(server, user, params.toString());
    if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
    const page = res.json() as { products: ProductListItem[]; nextCursor: string | null };
    products.push(...page.products);
    cursor = page.nextCursor;
  } while (cursor);
  return products;
}

/** A CSV text from rows of cells, quoted where needed (RFC 4180), lines ended by `eol`. */
export function csvText(rows: (string | number)[][], eol = '\r\n') {
  const cell = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.map((row) => row.map(cell).join(',')).join(eol) + eol;
}

/** The largest import a file may hold: IMPORT_MAX_ROWS rows (50,000, about 2.8 MB). */
export const largestImportCsv = () => importCsvOf(IMPORT_MAX_ROWS);

/** An import of `rows` new products, names, prices and stocks varied. */
export const importCsvOf = (rows: number) =>
  csvText([
    ['name', 'price', 'stock', 'description'],
    ...Array.from({ length: rows }, (_, i) => [
      `Imported product number ${i}`,
      `${(i % 1000) + 1}.99`,
      String(i % 500),
      `A description of product ${i}, long enough to look like a real one.`,
    ]),
  ]);

/** The four fields an import writes of each product, sorted by name: what a round trip keeps. */
export const catalogueFields = (
  products: { name: string; price: number; stock: number; description: string }[],
) =>
  products
    .map(({ name, price, stock, description }) => ({ name, price, stock, description }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * A product as the single-product read answers it: with where its stock is (all in Main here)
 * and its suppliers (none here).
 */
export const withPlaces = (product: Product) => ({
  ...product,
  locations:
    product.stock > 0
      ? [{ locationId: expect.any(String) as unknown, path: 'Main', quantity: product.stock }]
      : [],
  suppliers: [],
});

/** A catalogue's product ids, oldest first, read straight from the database. */
export async function productIdsOf(db: DB, catalogueId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('products')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.id);
}

/** `count` plain products of `stock` units each, numbered from 0, for `bulkLoad`. */
export const plainProducts = (count: number, stock: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `Product ${i}`,
    description: 'A thing',
    priceCents: 100,
    stock,
    image: null,
    createdAt: i,
    tags: [],
    costCents: null,
    sku: null,
    reorderPoint: null,
  }));

/** Keeps the id of every product row written from now on in `product_writes`, on either engine. */
export async function countProductWrites(server: TestServer) {
  const { db, dialect } = server.database;
  await sql`create table product_writes (product_id text not null)`.execute(db);
  if (dialect === 'sqlite') {
    await sql`create trigger product_writes after update on products
      begin insert into product_writes values (new.id); end`.execute(db);
  } else {
    await sql`create function product_writes() returns trigger language plpgsql as $$
      begin insert into product_writes values (new.id); return null; end $$`.execute(db);
    await sql`create trigger product_writes after update on products
      for each row execute function product_writes()`.execute(db);
  }
}

/** Ends what countProductWrites started: its trigger, function and table go. */
export async function stopCountingProductWrites(server: TestServer) {
  const { db, dialect } = server.database;
  if (dialect === 'sqlite') await sql`drop trigger product_writes`.execute(db);
  else {
    await sql`drop trigger product_writes on products`.execute(db);
    await sql`drop function product_writes()`.execute(db);
  }
  await sql`drop table product_writes`.execute(db);
}

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Product } from '../../../src/shared/schemas/products.js';
import type { TestServer } from './build.js';
import { multipart, type FilePart } from './images.js';
import type { SignedIn } from './accounts.js';

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
  fields: Partial<typeof validFields> = {},
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

import type { CatalogueRole } from '../../../src/shared/catalogue-roles.js';
import type { Catalogue } from '../../../src/shared/schemas/catalogues.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import type { TestServer } from '../support/build.js';
import { signIn, userRow, type SignedIn } from '../support/accounts.js';
import { multipart } from '../support/images.js';
import { validFields } from '../support/products.js';

/** A signed-in user and their id (their personal catalogue's too). */
export async function member(server: TestServer, name?: string) {
  const user = await signIn(server, name);
  const { id } = (await userRow(server, user.email))!;
  return { ...user, id };
}
export type Member = SignedIn & { id: string };

export const api = (
  server: TestServer,
  user: SignedIn,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) =>
  server.app.inject({
    method,
    url,
    headers: user.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** A new shared catalogue of `owner`. */
export async function newCatalogue(server: TestServer, owner: SignedIn, name = 'Shop floor') {
  const res = await api(server, owner, 'POST', '/api/catalogues', { name });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { catalogue: Catalogue }).catalogue;
}

/**
 * Makes `user` a member in `role`, written straight to the database: invitations are another
 * feature's, and these tests are about what a member may do once they are one.
 */
export async function addMember(
  server: TestServer,
  catalogueId: string,
  user: Member,
  role: CatalogueRole,
) {
  await server.database.db
    .insertInto('catalogue_members')
    .values({ catalogue_id: catalogueId, user_id: user.id, role, created_at: server.clock.now() })
    .execute();
}

/** POST …/products in a catalogue, as multipart like the app's form. */
export async function createIn(
  server: TestServer,
  user: SignedIn,
  catalogueId: string,
  fields: Record<string, string> = {},
) {
  const body = await multipart({ ...validFields, ...fields });
  return server.app.inject({
    method: 'POST',
    url: `/api/catalogues/${catalogueId}/products`,
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
}

export const productOf = (res: { json(): unknown }) => (res.json() as { product: Product }).product;

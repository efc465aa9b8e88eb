import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { catalogueScope } from '../../../src/server/features/catalogues/index.js';
import { roleCannot } from '../../../src/shared/catalogue-roles.js';
import { build } from '../support/build.js';
import { createProduct, UNKNOWN_ID } from '../support/products.js';
import { addMember, api, createIn, member, newCatalogue, productOf } from './support.js';

const NOT_FOUND = { message: 'Catalogue not found' };

describe('catalogues', async () => {
  const server = await build();

  it("lists the caller's catalogues: the personal one first, then by name", async () => {
    const ann = await member(server, 'Ann');
    const zoo = await newCatalogue(server, ann, 'Zoo shop');
    const attic = await newCatalogue(server, ann, 'Attic');
    expect(zoo).toMatchObject({ name: 'Zoo shop', personal: false, role: 'owner', members: 1 });
    const res = await api(server, ann, 'GET', '/api/catalogues');
    expect(res.statusCode).toBe(200);
    const { catalogues } = res.json() as { catalogues: { id: string; name: string }[] };
    expect(catalogues.map((catalogue) => catalogue.name)).toEqual([
      "Ann's catalogue",
      'Attic',
      'Zoo shop',
    ]);
    expect(catalogues[0]).toMatchObject({ id: ann.id, personal: true, role: 'owner', members: 1 });
    expect(catalogues[1]!.id).toBe(attic.id);
  });

  it('creates with 201 and its message, and refuses a blank or long name', async () => {
    const ann = await member(server);
    const res = await api(server, ann, 'POST', '/api/catalogues', { name: 'Stall' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Catalogue created',
      catalogue: { name: 'Stall' },
    });
    for (const name of ['  ', 'x'.repeat(51)]) {
      expect((await api(server, ann, 'POST', '/api/catalogues', { name })).statusCode).toBe(400);
    }
  });

  it('gets, renames and deletes a catalogue with its products', async () => {
    const ann = await member(server);
    const { id } = await newCatalogue(server, ann);
    const product = productOf(await createIn(server, ann, id, { name: 'Crate' }));
    expect((await api(server, ann, 'GET', `/api/catalogues/${id}`)).json()).toMatchObject({
      catalogue: { id, name: 'Shop floor', role: 'owner' },
    });
    // A body with nothing to change says so, not that there is no body.
    const empty = await api(server, ann, 'PATCH', `/api/catalogues/${id}`, {});
    expect([empty.statusCode, empty.json()]).toEqual([
      400,
      { message: 'Send a name, a reorderPoint, or both' },
    ]);
    const renamed = await api(server, ann, 'PATCH', `/api/catalogues/${id}`, { name: 'Back room' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: 'Catalogue renamed',
      catalogue: { name: 'Back room' },
    });
    const deleted = await api(server, ann, 'DELETE', `/api/catalogues/${id}`);
    expect([deleted.statusCode, deleted.json()]).toEqual([200, { message: 'Catalogue deleted' }]);
    const gone = await api(server, ann, 'GET', `/api/catalogues/${id}/products/${product.id}`);
    expect([gone.statusCode, gone.json()]).toEqual([404, NOT_FOUND]);
    const rows = await server.database.db
      .selectFrom('products')
      .select('id')
      .where('id', '=', product.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('keeps the personal catalogue: 409 for deleting or handing it over', async () => {
    const ann = await member(server);
    const res = await api(server, ann, 'DELETE', `/api/catalogues/${ann.id}`);
    expect([res.statusCode, res.json()]).toEqual([
      409,
      { message: 'Your personal catalogue cannot be deleted' },
    ]);
    const bob = await member(server);
    await addMember(server, ann.id, bob, 'admin');
    const transfer = await api(server, ann, 'POST', `/api/catalogues/${ann.id}/transfer`, {
      userId: bob.id,
    });
    expect([transfer.statusCode, transfer.json()]).toEqual([
      409,
      { message: 'Your personal catalogue cannot be handed over' },
    ]);
  });

  it('answers 404 to a non-member and for an unknown or malformed id, on every kind of route', async () => {
    const ann = await member(server);
    const eve = await member(server);
    const { id } = await newCatalogue(server, ann);
    for (const catalogueId of [id, UNKNOWN_ID, 'nope']) {
      for (const [method, path] of [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['GET', '/members'],
        ['GET', '/products'],
        ['POST', '/products'],
        ['GET', `/products/${UNKNOWN_ID}`],
      ] as const) {
        const res = await api(server, eve, method, `/api/catalogues/${catalogueId}${path}`, {});
        expect([res.statusCode, res.json()], `${method} ${path}`).toEqual([404, NOT_FOUND]);
      }
    }
    // Nor does anyone else's personal catalogue show through /api/products.
    const theirs = await createProduct(server, ann);
    expect((await api(server, eve, 'GET', `/api/products/${theirs.id}`)).statusCode).toBe(404);
  });
});

describe('members and roles', async () => {
  const server = await build();

  async function team() {
    const owner = await member(server, 'Olga');
    const admin = await member(server, 'Adam');
    const editor = await member(server, 'Edna');
    const stock = await member(server, 'Stan');
    const viewer = await member(server, 'Vera');
    const { id } = await newCatalogue(server, owner);
    await addMember(server, id, admin, 'admin');
    await addMember(server, id, editor, 'editor');
    await addMember(server, id, stock, 'stock');
    await addMember(server, id, viewer, 'viewer');
    return { id, owner, admin, editor, stock, viewer };
  }

  it('lists the members, the owner first, then by name', async () => {
    const { id, viewer } = await team();
    const res = await api(server, viewer, 'GET', `/api/catalogues/${id}/members`);
    const { members } = res.json() as { members: { user: { name: string }; role: string }[] };
    expect(members.map((m) => [m.user.name, m.role])).toEqual([
      ['Olga', 'owner'],
      ['Adam', 'admin'],
      ['Edna', 'editor'],
      ['Stan', 'stock'],
      ['Vera', 'viewer'],
    ]);
  });

  it('lets each role do what it may, and refuses the rest with 403, changing nothing', async () => {
    const { id, owner, editor, stock, viewer } = await team();
    const product = productOf(await createIn(server, owner, id, { name: 'Bolt', stock: '5' }));
    const base = `/api/catalogues/${id}/products`;

    const refused = await createIn(server, viewer, id, { name: 'Nope' });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { message: roleCannot('viewer', 'editProducts') },
    ]);
    const adjust = await api(server, viewer, 'POST', `${base}/${product.id}/stock`, { delta: 1 });
    expect([adjust.statusCode, adjust.json()]).toEqual([
      403,
      { message: roleCannot('viewer', 'adjustStock') },
    ]);
    const edit = await api(server, stock, 'PATCH', `${base}/${product.id}`, { name: 'Nut' });
    expect(edit.json()).toEqual({ message: roleCannot('stock', 'editProducts') });
    const csv = await api(server, stock, 'GET', `${base}/export.csv`);
    expect([csv.statusCode, csv.json()]).toEqual([403, { message: roleCannot('stock', 'export') }]);
    // Refused before the body is read: even an invalid body gets the 403.
    const bad = await api(server, viewer, 'PATCH', `${base}/${product.id}`, { price: 'x' });
    expect(bad.statusCode).toBe(403);
    const rename = await api(server, editor, 'PATCH', `/api/catalogues/${id}`, { name: 'Mine' });
    expect(rename.json()).toEqual({ message: roleCannot('editor', 'renameCatalogue') });
    expect(rename.json()).toEqual({ message: 'An editor cannot rename this catalogue.' });

    const list = await api(server, viewer, 'GET', base);
    const { products } = list.json() as { products: { name: string; stock: number }[] };
    expect(products).toEqual([expect.objectContaining({ name: 'Bolt', stock: 5 })]);

    const moved = await api(server, stock, 'POST', `${base}/${product.id}/stock`, { delta: -2 });
    expect(moved.statusCode).toBe(200);
    const edited = await api(server, editor, 'PATCH', `${base}/${product.id}`, { name: 'Nut' });
    expect(edited.json()).toMatchObject({ product: { name: 'Nut', stock: 3 } });
    expect((await api(server, viewer, 'GET', `${base}/export.csv`)).statusCode).toBe(200);
  });

  it('changes roles; never the owner', async () => {
    const { id, owner, admin, editor, viewer } = await team();
    const url = (userId: string) => `/api/catalogues/${id}/members/${userId}`;
    const res = await api(server, admin, 'PATCH', url(viewer.id), { role: 'editor' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Role changed',
      member: { user: { id: viewer.id, name: 'Vera' }, role: 'editor' },
    });
    const ownerRole = await api(server, admin, 'PATCH', url(owner.id), { role: 'viewer' });
    expect([ownerRole.statusCode, ownerRole.json()]).toEqual([
      409,
      { message: "The owner's role cannot be changed" },
    ]);
    const unknown = await api(server, admin, 'PATCH', url(UNKNOWN_ID), { role: 'viewer' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Member not found' }]);
    const toOwner = await api(server, admin, 'PATCH', url(viewer.id), { role: 'owner' });
    expect(toOwner.statusCode).toBe(400);
    const byEditor = await api(server, editor, 'PATCH', url(viewer.id), { role: 'viewer' });
    expect([byEditor.statusCode, byEditor.json()]).toEqual([
      403,
      { message: roleCannot('editor', 'manageMembers') },
    ]);
  });

  it('removes a member, lets one leave, never the owner; the next request is a 404', async () => {
    const { id, owner, admin, editor, viewer } = await team();
    const url = (userId: string) => `/api/catalogues/${id}/members/${userId}`;
    const before = await api(server, viewer, 'GET', `/api/catalogues/${id}/products`);
    expect(before.statusCode).toBe(200);
    const removed = await api(server, admin, 'DELETE', url(viewer.id));
    expect([removed.statusCode, removed.json()]).toEqual([200, { message: 'Member removed' }]);
    const after = await api(server, viewer, 'GET', `/api/catalogues/${id}/products`);
    expect([after.statusCode, after.json()]).toEqual([404, NOT_FOUND]);

    const notAllowed = await api(server, editor, 'DELETE', url(admin.id));
    expect(notAllowed.json()).toEqual({ message: roleCannot('editor', 'manageMembers') });
    const left = await api(server, editor, 'DELETE', url(editor.id));
    expect([left.statusCode, left.json()]).toEqual([200, { message: 'You left the catalogue' }]);
    const ownerStays = {
      message: 'The owner cannot leave or be removed; hand over ownership first',
    };
    expect((await api(server, owner, 'DELETE', url(owner.id))).json()).toEqual(ownerStays);
    expect((await api(server, admin, 'DELETE', url(owner.id))).json()).toEqual(ownerStays);
  });

  it('hands ownership to an admin only; the old owner becomes an admin', async () => {
    const { id, owner, admin, editor } = await team();
    const url = `/api/catalogues/${id}/transfer`;
    const toEditor = await api(server, owner, 'POST', url, { userId: editor.id });
    expect([toEditor.statusCode, toEditor.json()]).toEqual([
      409,
      { message: 'Ownership can only be handed to an admin' },
    ]);
    const byAdmin = await api(server, admin, 'POST', url, { userId: admin.id });
    expect(byAdmin.json()).toEqual({ message: roleCannot('admin', 'transferOwnership') });
    const res = await api(server, owner, 'POST', url, { userId: admin.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Ownership handed over',
      catalogue: { id, role: 'admin' },
    });
    const seen = await api(server, admin, 'GET', `/api/catalogues/${id}`);
    expect(seen.json()).toMatchObject({ catalogue: { role: 'owner' } });
    const deleteAsOld = await api(server, owner, 'DELETE', `/api/catalogues/${id}`);
    expect(deleteAsOld.statusCode).toBe(403);
  });
});

describe('a catalogue scope', () => {
  it('fails at start-up on a route that declares no action', async () => {
    const app = Fastify();
    app.decorate('db', {} as never);
    app.decorate('database', { dialect: 'sqlite' } as never);
    const start = async () => {
      await app.register(async (scope) => {
        catalogueScope(scope);
        scope.get('/forgotten', async () => ({}));
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow(
      'GET /forgotten is in a catalogue scope but declares no catalogueAction',
    );
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { roleCannot } from '../../../src/shared/catalogue-roles.js';
import { M } from '../../../src/shared/messages.js';
import { openEventStream, type EventStream } from '../../support/event-stream.js';
import { build } from '../support/build.js';
import {
  CATALOGUE_NOT_FOUND,
  PRODUCT_NOT_FOUND,
  changes,
  createProductIn,
  must,
  person,
  productExists,
  roleOf,
  send,
  snapshot,
  uniqueName,
  watchedTables,
  type Person,
  type Request,
} from './catalogue-world.js';
import { catalogueWith } from './fixtures.js';

/**
 * Ids carried from one catalogue into another: a product id is only ever looked up in the
 * catalogue of the URL (the personal routes: the caller's personal one), so a member who knows
 * an id from elsewhere reaches nothing through it, even in a catalogue where they may write.
 * And the membership routes' own edges: who can be changed, who can leave, who can inherit.
 */

const server = await build();
const tables = await watchedTables(server);
const owner = await person(server, 'Owner');
const editor = await person(server, 'Editor');
const outsider = await person(server, 'Outsider');

const shared = await catalogueWith(server, owner, 'Shared', [[editor, 'editor']]);
const foreign = await catalogueWith(server, outsider, 'Foreign', []);
const inShared = await createProductIn(server, owner, shared, { sku: 'SHARED-1' });
const inForeign = await createProductIn(server, outsider, foreign, { sku: 'FOREIGN-1' });
const inOwnersPersonal = await createProductIn(server, owner, owner.id, { sku: 'OWNER-1' });
const inEditorsPersonal = await createProductIn(server, editor, editor.id, { sku: 'EDITOR-1' });

/** Every request that names a product, aimed at `id` under `base`, and its "not found". */
const byId = (base: string, id: string): [Request, object][] => [
  [{ method: 'GET', url: `${base}/${id}` }, PRODUCT_NOT_FOUND],
  [
    { method: 'PATCH', url: `${base}/${id}`, form: { name: uniqueName('Taken') } },
    PRODUCT_NOT_FOUND,
  ],
  [{ method: 'POST', url: `${base}/${id}/stock`, json: { delta: 5 } }, PRODUCT_NOT_FOUND],
  [{ method: 'GET', url: `${base}/${id}/movements` }, PRODUCT_NOT_FOUND],
  [{ method: 'GET', url: `${base}/labels.pdf?ids=${id}` }, { message: M.labelsNotFound }],
  [
    { method: 'POST', url: `${base}/labels.pdf`, json: { ids: [id] } },
    { message: M.labelsNotFound },
  ],
  [
    { method: 'POST', url: `${base}/bulk-delete`, json: { ids: [id] } },
    { message: M.productsNotFound },
  ],
  [{ method: 'DELETE', url: `${base}/${id}` }, PRODUCT_NOT_FOUND],
];
const CODE_NOT_FOUND = { message: M.codeNotFound };

async function expectRefusedUnchanged(
  caller: Person,
  request: Request,
  expected: object,
  status = 404,
) {
  const before = await snapshot(server, tables);
  const answer = await send(server, caller, request);
  const where = `${request.method} ${request.url}`;
  expect({ where, status: answer.status, body: answer.body }).toEqual({
    where,
    status,
    body: expected,
  });
  expect(changes(before, await snapshot(server, tables)), where).toEqual({});
}

describe('a product id from another catalogue reaches nothing', () => {
  it("through the personal routes: a shared catalogue's product is not the caller's", async () => {
    for (const [request, notFound] of byId('/api/products', inShared)) {
      await expectRefusedUnchanged(editor, request, notFound);
    }
    await expectRefusedUnchanged(
      editor,
      { method: 'GET', url: '/api/products/lookup?code=SHARED-1' },
      CODE_NOT_FOUND,
    );
  });

  it("through a catalogue where the caller may write: their own, and a stranger's, products", async () => {
    for (const id of [inEditorsPersonal, inOwnersPersonal, inForeign]) {
      for (const [request, notFound] of byId(`/api/catalogues/${shared}/products`, id)) {
        await expectRefusedUnchanged(editor, request, notFound);
      }
    }
    for (const code of ['EDITOR-1', 'OWNER-1', 'FOREIGN-1']) {
      await expectRefusedUnchanged(
        editor,
        { method: 'GET', url: `/api/catalogues/${shared}/products/lookup?code=${code}` },
        CODE_NOT_FOUND,
      );
    }
  });

  it('through a bulk delete that mixes in one foreign id: nothing is deleted', async () => {
    const mine = await createProductIn(server, owner, shared);
    await expectRefusedUnchanged(
      editor,
      {
        method: 'POST',
        url: `/api/catalogues/${shared}/products/bulk-delete`,
        json: { ids: [mine, inForeign] },
      },
      { message: M.productsNotFound },
    );
    expect(await productExists(server, mine)).toBe(true);
  });

  it("through an import whose SKU matches another catalogue's product: a new product here", async () => {
    const before = await snapshot(server, ['products']);
    const answer = await must(
      server,
      editor,
      {
        method: 'POST',
        url: `/api/catalogues/${shared}/products/import`,
        csv: 'name,sku,price,stock,description\r\nSmuggled,FOREIGN-1,9.99,99,Overwrites?\r\n',
      },
      200,
    );
    expect(answer.body).toMatchObject({ created: 1, updated: 0 });
    const after = await snapshot(server, ['products']);
    const { products } = changes(before, after);
    expect(products?.removed ?? []).toEqual([]);
    expect(products?.added.map((row) => JSON.parse(row) as { catalogue_id: string })).toEqual([
      expect.objectContaining({ catalogue_id: shared }),
    ]);
  });

  it("through an Idempotency-Key used in another catalogue: never the other catalogue's answer", async () => {
    const key = 'one-key-two-catalogues';
    const form = { name: 'Twice sent', price: '1', stock: '1', description: 'Same body' };
    const first = await send(server, editor, {
      method: 'POST',
      url: `/api/catalogues/${shared}/products`,
      form,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    const again = await send(server, editor, {
      method: 'POST',
      url: '/api/products',
      form,
      headers: { 'idempotency-key': key },
    });
    // Either refused as another request (422), or done in the personal catalogue: never a
    // replay that says "created" about the shared catalogue's product.
    if (again.status === 201) {
      const id = (again.body as { product: { id: string } }).product.id;
      expect(id).not.toBe((first.body as { product: { id: string } }).product.id);
    } else {
      expect(again.status).toBe(422);
    }
  });
});

describe('answers kept for the next read', () => {
  it("never give one catalogue's products for another's, whatever their versions", async () => {
    const twin = await catalogueWith(server, owner, 'Twin', [[editor, 'editor']]);
    const ids = async (url: string) =>
      (
        (await must(server, editor, { method: 'GET', url }, 200)).body as {
          products: { id: string }[];
        }
      ).products.map((product) => product.id);
    const twinProduct = await createProductIn(server, owner, twin);
    // Read in turn, twice each: the second of each may come from what the first kept.
    for (let pass = 0; pass < 2; pass++) {
      expect(await ids(`/api/catalogues/${shared}/products`)).not.toContain(twinProduct);
      expect(await ids(`/api/catalogues/${twin}/products`)).toEqual([twinProduct]);
      const personal = await ids('/api/products');
      expect(personal).toContain(inEditorsPersonal);
      expect(personal).not.toContain(twinProduct);
      expect(personal).not.toContain(inShared);
      expect(await ids(`/api/catalogues/${editor.id}/products`)).toEqual(personal);
    }
  });
});

describe('the edges of membership', () => {
  it("an admin cannot make a member of someone who is not one, nor change the owner's role", async () => {
    const admin = await person(server, 'Admin');
    const catalogueId = await catalogueWith(server, owner, 'Edges', [[admin, 'admin']]);
    const members = `/api/catalogues/${catalogueId}/members`;
    await expectRefusedUnchanged(
      admin,
      { method: 'PATCH', url: `${members}/${outsider.id}`, json: { role: 'admin' } },
      { message: 'Member not found' },
    );
    expect(await roleOf(server, catalogueId, outsider.id)).toBeUndefined();
    const before = await snapshot(server, tables);
    const ownerRole = await send(server, admin, {
      method: 'PATCH',
      url: `${members}/${owner.id}`,
      json: { role: 'viewer' },
    });
    expect({ status: ownerRole.status, body: ownerRole.body }).toEqual({
      status: 409,
      body: { message: "The owner's role cannot be changed" },
    });
    const removeOwner = await send(server, admin, {
      method: 'DELETE',
      url: `${members}/${owner.id}`,
    });
    expect({ status: removeOwner.status, body: removeOwner.body }).toEqual({
      status: 409,
      body: { message: 'The owner cannot leave or be removed; hand over ownership first' },
    });
    // Nobody becomes an owner by a role change: owner is not a role one can give.
    const toOwner = await send(server, admin, {
      method: 'PATCH',
      url: `${members}/${admin.id}`,
      json: { role: 'owner' },
    });
    expect(toOwner.status).toBe(400);
    expect(changes(before, await snapshot(server, tables))).toEqual({});
  });

  it('no member without the right raises their own role', async () => {
    for (const role of ['editor', 'stock', 'viewer'] as const) {
      const climber = await person(server, `Climbing ${role}`);
      const catalogueId = await catalogueWith(server, owner, `Ladder ${role}`, [[climber, role]]);
      await expectRefusedUnchanged(
        climber,
        {
          method: 'PATCH',
          url: `/api/catalogues/${catalogueId}/members/${climber.id}`,
          json: { role: 'admin' },
        },
        { message: roleCannot(role, 'manageMembers') },
        403,
      );
    }
  });

  it('a stranger cannot join by naming themself', async () => {
    const catalogueId = await catalogueWith(server, owner, 'Closed', []);
    await expectRefusedUnchanged(
      outsider,
      {
        method: 'PATCH',
        url: `/api/catalogues/${catalogueId}/members/${outsider.id}`,
        json: { role: 'admin' },
      },
      CATALOGUE_NOT_FOUND,
    );
  });

  it('any member but the owner can leave, and their next request finds no catalogue', async () => {
    for (const role of ['admin', 'editor', 'stock', 'viewer'] as const) {
      const leaver = await person(server, `Leaving ${role}`);
      const catalogueId = await catalogueWith(server, owner, `Left by ${role}`, [[leaver, role]]);
      // Read once, so that an answer kept for the next read would show.
      await must(
        server,
        leaver,
        { method: 'GET', url: `/api/catalogues/${catalogueId}/products` },
        200,
      );
      const left = await send(server, leaver, {
        method: 'DELETE',
        url: `/api/catalogues/${catalogueId}/members/${leaver.id}`,
      });
      expect({ role, status: left.status, body: left.body }).toEqual({
        role,
        status: 200,
        body: { message: 'You left the catalogue' },
      });
      await expectRefusedUnchanged(
        leaver,
        { method: 'GET', url: `/api/catalogues/${catalogueId}/products` },
        CATALOGUE_NOT_FOUND,
      );
    }
    const catalogueId = await catalogueWith(server, owner, 'Kept', []);
    const ownerLeaves = await send(server, owner, {
      method: 'DELETE',
      url: `/api/catalogues/${catalogueId}/members/${owner.id}`,
    });
    expect({ status: ownerLeaves.status, body: ownerLeaves.body }).toEqual({
      status: 409,
      body: { message: 'The owner cannot leave or be removed; hand over ownership first' },
    });
  });

  it('ownership goes only to an admin; the old owner becomes one', async () => {
    const heir = await person(server, 'Heir');
    const plain = await person(server, 'Plain editor');
    const catalogueId = await catalogueWith(server, owner, 'Inherited', [
      [heir, 'admin'],
      [plain, 'editor'],
    ]);
    const transfer = `/api/catalogues/${catalogueId}/transfer`;
    for (const userId of [plain.id, outsider.id, owner.id]) {
      const before = await snapshot(server, tables);
      const refused = await send(server, owner, {
        method: 'POST',
        url: transfer,
        json: { userId },
      });
      expect({ userId, status: refused.status, body: refused.body }).toEqual({
        userId,
        status: 409,
        body: { message: 'Ownership can only be handed to an admin' },
      });
      expect(changes(before, await snapshot(server, tables))).toEqual({});
    }
    await must(server, owner, { method: 'POST', url: transfer, json: { userId: heir.id } }, 200);
    expect(await roleOf(server, catalogueId, heir.id)).toBe('owner');
    expect(await roleOf(server, catalogueId, owner.id)).toBe('admin');
    // The old owner, now an admin, cannot hand it back or delete it.
    const back = await send(server, owner, {
      method: 'POST',
      url: transfer,
      json: { userId: owner.id },
    });
    expect(back.status).toBe(403);
    const gone = await send(server, owner, {
      method: 'DELETE',
      url: `/api/catalogues/${catalogueId}`,
    });
    expect(gone.status).toBe(403);
  });

  it('a deleted catalogue is gone for every former member, products and all', async () => {
    const viewer = await person(server, 'Former viewer');
    const catalogueId = await catalogueWith(server, owner, 'Doomed', [[viewer, 'viewer']]);
    const product = await createProductIn(server, owner, catalogueId);
    await must(server, owner, { method: 'DELETE', url: `/api/catalogues/${catalogueId}` }, 200);
    expect(await productExists(server, product)).toBe(false);
    for (const who of [owner, viewer]) {
      await expectRefusedUnchanged(
        who,
        { method: 'GET', url: `/api/catalogues/${catalogueId}/products/${product}` },
        CATALOGUE_NOT_FOUND,
      );
    }
  });

  it('lists to each person exactly the catalogues they belong to, the personal one first', async () => {
    const list = async (who: Person) =>
      (
        (await must(server, who, { method: 'GET', url: '/api/catalogues' }, 200)).body as {
          catalogues: { id: string; personal: boolean; role: string }[];
        }
      ).catalogues;
    const editors = await list(editor);
    expect(editors[0]).toMatchObject({ id: editor.id, personal: true, role: 'owner' });
    expect(editors.map((catalogue) => catalogue.id)).toContain(shared);
    expect(editors.map((catalogue) => catalogue.id)).not.toContain(foreign);
    expect(editors.map((catalogue) => catalogue.id)).not.toContain(owner.id);
    expect(editors.find((catalogue) => catalogue.id === shared)?.role).toBe('editor');
    const outsiders = await list(outsider);
    expect(outsiders.map((catalogue) => catalogue.id)).not.toContain(shared);
  });
});

describe('invitations reach only their catalogue and their address', () => {
  const invite = async (catalogueId: string, inviter: Person, email: string) =>
    (
      (
        await must(
          server,
          inviter,
          {
            method: 'POST',
            url: `/api/catalogues/${catalogueId}/invitations`,
            json: { email, role: 'admin' },
          },
          201,
        )
      ).body as { invitation: { id: string } }
    ).invitation.id;

  it("an admin of one catalogue cannot revoke another catalogue's invitation through theirs", async () => {
    const victimInvitation = await invite(foreign, outsider, 'someone@example.com');
    await expectRefusedUnchanged(
      owner,
      { method: 'DELETE', url: `/api/catalogues/${shared}/invitations/${victimInvitation}` },
      { message: M.invitationNotFound },
    );
  });

  it('nobody but the confirmed owner of the address sees or answers it', async () => {
    const invitee = await person(server, 'Invitee');
    const id = await invite(shared, owner, invitee.email);
    // A would-be thief: another account, and one that asked to move to the invitee's address
    // (the change waits for a code sent there, which the thief never gets).
    const thief = await person(server, 'Thief');
    const moved = await send(server, thief, {
      method: 'PATCH',
      url: '/api/auth/profile',
      json: { name: 'Thief', email: invitee.email },
    });
    expect(moved.status).toBeLessThan(500);
    const seen = await must(server, thief, { method: 'GET', url: '/api/invitations' }, 200);
    expect(seen.body).toEqual({ invitations: [] });
    for (const verb of ['accept', 'decline']) {
      await expectRefusedUnchanged(
        thief,
        { method: 'POST', url: `/api/invitations/${id}/${verb}` },
        { message: M.invitationNotFound },
      );
    }
    expect(await roleOf(server, shared, thief.id)).toBeUndefined();
    // The invitee still can.
    await must(server, invitee, { method: 'POST', url: `/api/invitations/${id}/accept` }, 200);
    expect(await roleOf(server, shared, invitee.id)).toBe('admin');
  });

  it('a revoked invitation cannot be accepted', async () => {
    const invitee = await person(server, 'Revoked invitee');
    const id = await invite(shared, owner, invitee.email);
    await must(
      server,
      owner,
      { method: 'DELETE', url: `/api/catalogues/${shared}/invitations/${id}` },
      200,
    );
    await expectRefusedUnchanged(
      invitee,
      { method: 'POST', url: `/api/invitations/${id}/accept` },
      { message: M.invitationNotFound },
    );
  });
});

describe('a removed member stops hearing about the catalogue', async () => {
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const streams: EventStream[] = [];
  afterAll(() => streams.forEach((stream) => stream.close()));

  it('their open stream says catalogue.removed and carries none of its changes after', async () => {
    const member = await person(server, 'Listener');
    const catalogueId = await catalogueWith(server, owner, 'Overheard', [[member, 'viewer']]);
    const stream = await openEventStream(baseUrl, member.token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    const product = await createProductIn(server, owner, catalogueId);
    const created = await stream.next((event) => event.kind === 'product.created');
    await must(
      server,
      owner,
      { method: 'DELETE', url: `/api/catalogues/${catalogueId}/members/${member.id}` },
      200,
    );
    const removed = await stream.next((event) => event.kind === 'catalogue.removed', 2_000);
    expect(removed.data).toEqual({ catalogueId });
    const seen = stream.events.length;
    await must(
      server,
      owner,
      {
        method: 'POST',
        url: `/api/catalogues/${catalogueId}/products/${product}/stock`,
        json: { delta: 2 },
      },
      200,
    );
    // Its own personal catalogue still streams: a write there proves the stream was read. The
    // server may end the stream instead; then a reconnect that asks for what it missed (from
    // before the removal) must not get the catalogue's changes either.
    const own = await createProductIn(server, member, member.id);
    const mine = (event: { kind: string; data: unknown }) =>
      event.kind === 'product.created' &&
      (event.data as { product: { id: string } }).product.id === own;
    const ended = await Promise.race([
      stream.ended.then(() => true),
      stream.next(mine, 2_000, seen).then(() => false),
    ]);
    const leakedOn = (events: { data: unknown }[]) =>
      events.filter(
        (event) => (event.data as { catalogueId?: string }).catalogueId === catalogueId,
      );
    expect(leakedOn(stream.events.slice(seen))).toEqual([]);
    if (ended) {
      // What a browser does: reconnect after the last event it got. And what an attacker
      // might: ask again from before the removal. Neither brings the catalogue's changes back.
      for (const lastEventId of [removed.id, created.id]) {
        const again = await openEventStream(baseUrl, member.token, {
          'last-event-id': String(lastEventId),
        });
        streams.push(again);
        expect(again.status).toBe(200);
        if (lastEventId === removed.id) await again.next(mine, 2_000);
        else await Promise.race([again.ended, new Promise((wait) => setTimeout(wait, 500))]);
        const afterRemoval = again.events.filter((event) => Number(event.id) > Number(removed.id));
        expect(leakedOn(afterRemoval)).toEqual([]);
      }
    }
  });
});

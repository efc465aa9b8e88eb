import { describe, expect, it } from 'vitest';
import { ACTIVITY_MESSAGES as A } from '../../../src/shared/activity.js';
import type { ActivityEntry, ActivityResponse } from '../../../src/shared/schemas/activity.js';
import { L, type Location } from '../../../src/shared/schemas/locations/locations.js';
import { build } from '../support/build.js';
import { addMember, api, member, newCatalogue, type Member } from '../catalogues/support.js';
import { addWebhook, receiver } from '../webhooks/support.js';

const LOCATION_KINDS = ['location.created', 'location.updated', 'location.deleted'];

/** Every change of a catalogue's locations is logged, in its transaction, and cannot be undone. */
describe("the activity of a catalogue's locations", async () => {
  const server = await build({ env: { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' } });

  const entries = async (user: Member, base: string) => {
    const res = await api(server, user, 'GET', `${base}/activity?limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ActivityResponse).entries.filter((entry) =>
      LOCATION_KINDS.includes(entry.kind),
    );
  };
  const write = async (
    user: Member,
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ) => {
    const res = await server.app.inject({
      method,
      url,
      headers: { ...user.headers, 'stockroom-source': 'form' },
      ...(body ? { payload: body } : {}),
    });
    return res;
  };

  it('records each create, rename, move, recode and delete, with who and from where', async () => {
    const owner = await member(server, 'Olga');
    const { id } = await newCatalogue(server, owner);
    const base = `/api/catalogues/${id}`;
    const editor = await member(server, 'Ed');
    await addMember(server, id, editor, 'editor');
    const hook = await receiver();
    await addWebhook(server, owner, id, hook.url, LOCATION_KINDS);

    const made = async (name: string, parentId: string | null = null) => {
      const res = await write(editor, 'POST', `${base}/locations`, { name, parentId });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { location: Location }).location;
    };
    const hall = await made('Hall');
    const yard = await made('Yard');
    const shelf = await made('Shelf', hall.id);
    const patch = (body: object) => write(editor, 'PATCH', `${base}/locations/${shelf.id}`, body);
    expect((await patch({ name: 'Shelf 2' })).statusCode).toBe(200);
    expect((await patch({ parentId: yard.id })).statusCode).toBe(200);
    expect((await patch({ code: 'SHELF-2' })).statusCode).toBe(200);
    // Nothing changes, nothing is logged.
    expect((await patch({ name: 'Shelf 2' })).statusCode).toBe(200);
    const deleted = await write(editor, 'DELETE', `${base}/locations/${shelf.id}`);
    expect(deleted.statusCode).toBe(200);
    // Refused changes are not logged either.
    const refused = await write(editor, 'POST', `${base}/locations`, { name: 'hall' });
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: L.nameTaken }]);

    const logged = (await entries(owner, base)).reverse();
    const who = {
      actor: { id: editor.id, name: 'Ed' },
      source: 'form',
      product: null,
      undoable: false,
    };
    const named = (location: Location, path: string, code = location.code) => ({
      location: { id: location.id, name: path.split(' / ').at(-1), path, code },
    });
    expect(logged).toEqual([
      expect.objectContaining({ ...who, kind: 'location.created', data: named(hall, 'Hall') }),
      expect.objectContaining({ ...who, kind: 'location.created', data: named(yard, 'Yard') }),
      expect.objectContaining({
        ...who,
        kind: 'location.created',
        data: named(shelf, 'Hall / Shelf'),
      }),
      expect.objectContaining({
        ...who,
        kind: 'location.updated',
        changes: { name: { before: 'Shelf', after: 'Shelf 2' } },
        data: named(shelf, 'Hall / Shelf 2'),
      }),
      expect.objectContaining({
        ...who,
        kind: 'location.updated',
        changes: { path: { before: 'Hall / Shelf 2', after: 'Yard / Shelf 2' } },
        data: named(shelf, 'Yard / Shelf 2'),
      }),
      expect.objectContaining({
        ...who,
        kind: 'location.updated',
        changes: { code: { before: shelf.code, after: 'SHELF-2' } },
        data: named(shelf, 'Yard / Shelf 2', 'SHELF-2'),
      }),
      expect.objectContaining({
        ...who,
        kind: 'location.deleted',
        data: named(shelf, 'Yard / Shelf 2', 'SHELF-2'),
      }),
    ]);

    // Not undoable, by anyone.
    const undo = await api(server, owner, 'POST', `${base}/activity/${logged[0]!.id}/undo`);
    expect([undo.statusCode, undo.json()]).toEqual([409, { message: A.cannotUndo }]);

    // One webhook per entry, queued with it.
    const queued = await server.database.db
      .selectFrom('webhook_deliveries')
      .select('event_type')
      .where('catalogue_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(queued.map((row) => row.event_type).sort()).toEqual(
      logged.map((entry: ActivityEntry) => entry.kind).sort(),
    );
  });

  it('logs the personal catalogue’s location changes too', async () => {
    const owner = await member(server, 'Pia');
    const res = await write(owner, 'POST', '/api/locations', { name: 'Attic' });
    expect(res.statusCode).toBe(201);
    const [entry] = await entries(owner, '/api/products');
    expect(entry).toMatchObject({
      kind: 'location.created',
      actor: { id: owner.id, name: 'Pia' },
      data: { location: { name: 'Attic', path: 'Attic' } },
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { ActivityEntry, ActivityResponse } from '../../../src/shared/schemas/activity.js';
import { build } from '../support/build.js';
import { csvText, importCsv } from '../support/products.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
  type Member,
} from '../catalogues/support.js';
import { accept, invited } from '../invitations/support.js';

const DAY = 24 * 60 * 60 * 1000;

/** The activity log: every change recorded with where it was made, listed, filtered and paged. */
describe('the activity log', async () => {
  const server = await build();

  const send = (
    user: Member,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    source?: string,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { ...user.headers, ...(source ? { 'stockroom-source': source } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });

  const list = async (user: Member, catalogueId: string, query = '') => {
    const res = await api(server, user, 'GET', `/api/catalogues/${catalogueId}/activity${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ActivityResponse;
  };

  it('records each kind of change with its source, and nothing for a refused change', async () => {
    const owner = await member(server, 'Olga');
    const clerk = await member(server, 'Carl');
    const { id } = await newCatalogue(server, owner);
    await addMember(server, id, clerk, 'editor');
    const base = `/api/catalogues/${id}/products`;
    const product = productOf(
      await createIn(server, owner, id, { name: 'Vase', stock: '4', sku: 'V-1' }),
    );
    const other = productOf(await createIn(server, owner, id, { name: 'Bowl' }));
    const item = `${base}/${product.id}`;

    expect((await send(clerk, 'POST', `${item}/stock`, { delta: 3 }, 'stepper')).statusCode).toBe(
      200,
    );
    expect((await send(clerk, 'POST', `${item}/stock`, { count: 5 }, 'scan')).statusCode).toBe(200);
    // Refused: below 0, a taken SKU, an unknown source. None leaves an entry.
    expect((await send(clerk, 'POST', `${item}/stock`, { delta: -50 }, 'stepper')).statusCode).toBe(
      409,
    );
    expect(
      (await send(clerk, 'PATCH', `${base}/${other.id}`, { sku: 'v-1' }, 'form')).statusCode,
    ).toBe(409);
    const bad = await send(clerk, 'POST', `${item}/stock`, { delta: 1 }, 'keyboard');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'Stockroom-Source must be one of scan, stepper, form, activity',
    });
    expect((await send(clerk, 'PATCH', item, { price: 4.5 }, 'form')).statusCode).toBe(200);
    expect((await send(clerk, 'DELETE', `${base}/${other.id}`)).statusCode).toBe(200);
    const csv = csvText([
      ['name', 'description', 'price', 'stock'],
      ['Chair', 'Oak', '40', '2'],
    ]);
    expect((await importCsv(server, clerk, csv, '', base)).statusCode).toBe(200);
    expect(
      (await send(owner, 'PATCH', `/api/catalogues/${id}`, { name: 'Back room' })).statusCode,
    ).toBe(200);
    const role = await send(owner, 'PATCH', `/api/catalogues/${id}/members/${clerk.id}`, {
      role: 'stock',
    });
    expect(role.statusCode).toBe(200);
    const newcomer = await member(server, 'Nina');
    const invitation = await invited(server, owner, id, newcomer.email, 'viewer');
    expect((await accept(server, newcomer, invitation.id)).status).toBe(200);
    expect(
      (await send(owner, 'DELETE', `/api/catalogues/${id}/members/${newcomer.id}`)).statusCode,
    ).toBe(200);

    const { entries } = await list(owner, id);
    const seen = entries.map(({ kind, source, actor, product, changes, data }) => ({
      kind,
      source,
      actor: actor?.name,
      product: product?.name,
      changes,
      data,
    }));
    expect(seen.reverse()).toEqual([
      {
        kind: 'product.created',
        source: 'api',
        actor: 'Olga',
        product: 'Vase',
        changes: null,
        data: {},
      },
      {
        kind: 'product.created',
        source: 'api',
        actor: 'Olga',
        product: 'Bowl',
        changes: null,
        data: {},
      },
      {
        kind: 'stock.moved',
        source: 'stepper',
        actor: 'Carl',
        product: 'Vase',
        changes: null,
        // Without a location, in the default one: its id is the catalogue's.
        data: {
          movementId: expect.any(String),
          oldStock: 4,
          newStock: 7,
          delta: 3,
          reason: null,
          locationId: id,
        },
      },
      {
        kind: 'stock.moved',
        source: 'scan',
        actor: 'Carl',
        product: 'Vase',
        changes: null,
        data: {
          movementId: expect.any(String),
          oldStock: 7,
          newStock: 5,
          delta: -2,
          reason: 'counted',
          locationId: id,
        },
      },
      {
        kind: 'product.updated',
        source: 'form',
        actor: 'Carl',
        product: 'Vase',
        changes: { price: { before: 1999, after: 450 } },
        data: {},
      },
      {
        kind: 'product.deleted',
        source: 'api',
        actor: 'Carl',
        product: 'Bowl',
        changes: null,
        data: {},
      },
      {
        kind: 'import.done',
        source: 'import',
        actor: 'Carl',
        product: undefined,
        changes: null,
        data: { created: 1, updated: 0 },
      },
      {
        kind: 'catalogue.renamed',
        source: 'api',
        actor: 'Olga',
        product: undefined,
        changes: { name: { before: 'Shop floor', after: 'Back room' } },
        data: {},
      },
      {
        kind: 'member.role_changed',
        source: 'api',
        actor: 'Olga',
        product: undefined,
        changes: { role: { before: 'editor', after: 'stock' } },
        data: { member: { id: clerk.id, name: 'Carl' } },
      },
      {
        kind: 'member.added',
        source: 'api',
        actor: 'Nina',
        product: undefined,
        changes: null,
        data: { member: { id: newcomer.id, name: 'Nina' }, role: 'viewer' },
      },
      {
        kind: 'member.removed',
        source: 'api',
        actor: 'Olga',
        product: undefined,
        changes: null,
        data: { member: { id: newcomer.id, name: 'Nina' }, role: 'viewer', left: false },
      },
    ]);
    // The movement the entry names is the one in the history.
    const history = await api(server, owner, 'GET', `${item}/movements`);
    const movementIds = (history.json() as { movements: { id: string }[] }).movements.map(
      (m) => m.id,
    );
    const moved = entries.filter((entry) => entry.kind === 'stock.moved');
    for (const entry of moved) expect(movementIds).toContain(entry.data.movementId);
  });

  it('filters by product, member, kind and dates, pages with a cursor, and refuses bad values', async () => {
    const owner = await member(server, 'Olga');
    const clerk = await member(server, 'Carl');
    const { id } = await newCatalogue(server, owner);
    await addMember(server, id, clerk, 'stock');
    const first = productOf(await createIn(server, owner, id, { name: 'Vase' }));
    const second = productOf(await createIn(server, owner, id, { name: 'Bowl' }));
    const day1 = server.clock.now();
    server.clock.advance(DAY);
    for (let i = 0; i < 3; i += 1) {
      await api(server, clerk, 'POST', `/api/catalogues/${id}/products/${first.id}/stock`, {
        delta: 1,
      });
    }
    await api(server, clerk, 'POST', `/api/catalogues/${id}/products/${second.id}/stock`, {
      delta: 1,
    });

    const kinds = (r: ActivityResponse) => r.entries.map((e) => `${e.kind}:${e.product?.name}`);
    expect(kinds(await list(owner, id, `?product=${second.id}`))).toEqual([
      'stock.moved:Bowl',
      'product.created:Bowl',
    ]);
    expect((await list(owner, id, `?member=${clerk.id}`)).entries).toHaveLength(4);
    expect((await list(owner, id, '?kind=product.created')).entries).toHaveLength(2);
    const dayOne = new Date(day1).toISOString().slice(0, 10);
    expect(kinds(await list(owner, id, `?to=${dayOne}`))).toEqual([
      'product.created:Bowl',
      'product.created:Vase',
    ]);
    const from = new Date(day1 + DAY).toISOString();
    expect((await list(owner, id, `?from=${from}`)).entries).toHaveLength(4);

    const page1 = await list(owner, id, '?limit=4');
    expect(page1.entries).toHaveLength(4);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await list(owner, id, `?limit=4&cursor=${page1.nextCursor}`);
    expect(page2.entries).toHaveLength(2);
    expect(page2.nextCursor).toBeNull();
    const ids = [...page1.entries, ...page2.entries].map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    for (const query of [
      '?limit=0',
      '?limit=101',
      '?kind=nope',
      '?from=yesterday',
      // Not a day of the calendar: refused, not read as one in March.
      '?from=2027-02-30',
      '?to=2027-04-31T10:00:00Z',
      '?product=1',
      '?cursor=zz',
    ]) {
      const res = await api(server, owner, 'GET', `/api/catalogues/${id}/activity${query}`);
      expect(res.statusCode, query).toBe(400);
      expect((res.json() as { message: string }).message, query).toBeTruthy();
    }
    // The personal catalogue's log, at /api/products/activity.
    productOf(await createIn(server, owner, owner.id, { name: 'Mine' }));
    const mine = await api(server, owner, 'GET', '/api/products/activity');
    expect((mine.json() as ActivityResponse).entries.map((e) => e.product?.name)).toEqual(['Mine']);
    // Not a member: the catalogue does not exist.
    const stranger = await member(server);
    expect((await api(server, stranger, 'GET', `/api/catalogues/${id}/activity`)).statusCode).toBe(
      404,
    );
  });
});

export { DAY };
export type { ActivityEntry };

/**
 * Changes of a catalogue's settings are logged too: its reorder point, its webhook endpoints. A
 * write that changes nothing leaves no entry, no webhook and no live event.
 */
describe('the activity log of settings, and of writes that change nothing', async () => {
  const server = await build({ env: { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' } });
  const { db } = server.database;

  const entriesOf = async (user: Member, catalogueId: string) => {
    const res = await api(server, user, 'GET', `/api/catalogues/${catalogueId}/activity`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ActivityResponse).entries.reverse();
  };
  const seen = (entries: ActivityEntry[]) =>
    entries.map(({ kind, actor, product, changes, data }) => ({
      kind,
      actor: actor?.name,
      product: product?.name,
      changes,
      data,
    }));
  const liveEvents = async (catalogueId: string) =>
    (
      await db
        .selectFrom('live_events')
        .select(['kind'])
        .where('catalogue_id', '=', catalogueId)
        .orderBy('id')
        .execute()
    ).map(({ kind }) => kind);
  const deliveries = async (webhookId: string) =>
    (
      await db
        .selectFrom('webhook_deliveries')
        .select(['event_type', 'payload', 'created_at'])
        .where('webhook_id', '=', webhookId)
        .orderBy('created_at')
        .execute()
    ).map((row) => ({
      type: row.event_type,
      data: (JSON.parse(row.payload) as { data: Record<string, unknown> }).data,
    }));
  const versionOf = async (catalogueId: string) =>
    (
      await db
        .selectFrom('catalogues')
        .select('version')
        .where('id', '=', catalogueId)
        .executeTakeFirstOrThrow()
    ).version;
  const hookOf = async (owner: Member, catalogueId: string, events: string[]) => {
    const res = await api(server, owner, 'POST', `/api/catalogues/${catalogueId}/webhooks`, {
      url: 'http://127.0.0.1:9/hooks',
      events,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { webhook: { id: string } }).webhook;
  };

  it("records a change of the catalogue's reorder point as its own kind, with its webhook", async () => {
    const owner = await member(server, 'Olga');
    const { id } = await newCatalogue(server, owner, 'Shop');
    const hook = await hookOf(owner, id, ['catalogue.renamed', 'catalogue.reorder_point_changed']);
    const patch = async (body: object) => {
      server.clock.advance(1000);
      const res = await api(server, owner, 'PATCH', `/api/catalogues/${id}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { catalogue: { name: string; reorderPoint: number } };
    };
    const start = (await entriesOf(owner, id)).length;

    await patch({ reorderPoint: 4 });
    await patch({ reorderPoint: 7, name: 'Shop renamed' });
    expect(seen((await entriesOf(owner, id)).slice(start))).toEqual([
      {
        kind: 'catalogue.reorder_point_changed',
        actor: 'Olga',
        product: undefined,
        changes: { reorderPoint: { before: 10, after: 4 } },
        data: {},
      },
      {
        kind: 'catalogue.renamed',
        actor: 'Olga',
        product: undefined,
        changes: { name: { before: 'Shop', after: 'Shop renamed' } },
        data: {},
      },
      {
        kind: 'catalogue.reorder_point_changed',
        actor: 'Olga',
        product: undefined,
        changes: { reorderPoint: { before: 4, after: 7 } },
        data: {},
      },
    ]);
    expect(await deliveries(hook.id)).toEqual([
      {
        type: 'catalogue.reorder_point_changed',
        data: expect.objectContaining({
          kind: 'catalogue.reorder_point_changed',
          actor: { id: owner.id, name: 'Olga' },
          changes: { reorderPoint: { before: 10, after: 4 } },
        }) as unknown,
      },
      {
        type: 'catalogue.renamed',
        data: expect.objectContaining({
          changes: { name: { before: 'Shop', after: 'Shop renamed' } },
        }) as unknown,
      },
      {
        type: 'catalogue.reorder_point_changed',
        data: expect.objectContaining({
          changes: { reorderPoint: { before: 4, after: 7 } },
        }) as unknown,
      },
    ]);

    // The same name, the same point, or both: 200 with the catalogue as it is, and nothing else.
    const entries = (await entriesOf(owner, id)).length;
    const events = await liveEvents(id);
    const version = await versionOf(id);
    for (const body of [
      { name: 'Shop renamed' },
      { reorderPoint: 7 },
      { name: 'Shop renamed', reorderPoint: 7 },
    ]) {
      const { catalogue } = await patch(body);
      expect(catalogue).toMatchObject({ name: 'Shop renamed', reorderPoint: 7 });
    }
    expect((await entriesOf(owner, id)).length).toBe(entries);
    expect(await liveEvents(id)).toEqual(events);
    expect(await versionOf(id)).toBe(version);
    expect(await deliveries(hook.id)).toHaveLength(3);
    // A change of one of the two records that one only.
    await patch({ name: 'Shop renamed', reorderPoint: 8 });
    expect((await entriesOf(owner, id)).at(-1)).toMatchObject({
      kind: 'catalogue.reorder_point_changed',
      changes: { reorderPoint: { before: 7, after: 8 } },
    });
    expect((await entriesOf(owner, id)).length).toBe(entries + 1);
  });

  it('records creating, changing, deleting a webhook and replacing its secret, never a secret nor its path', async () => {
    const owner = await member(server, 'Olga');
    const viewer = await member(server, 'Vera');
    const editor = await member(server, 'Eddie');
    const { id } = await newCatalogue(server, owner, 'Hooks');
    await addMember(server, id, viewer, 'viewer');
    await addMember(server, id, editor, 'editor');
    const base = `/api/catalogues/${id}/webhooks`;
    const secrets: string[] = [];
    const created = await api(server, owner, 'POST', base, {
      url: 'http://127.0.0.1:9/hooks/t0ken-in-path?key=s3cret',
      events: ['product.created'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { webhook, secret } = created.json() as { webhook: { id: string }; secret: string };
    secrets.push(secret);
    const url = `${base}/${webhook.id}`;
    const ok = async (method: 'PATCH' | 'POST' | 'DELETE', path: string, body?: object) => {
      const res = await api(server, owner, method, path, body);
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    await ok('PATCH', url, { events: ['product.created', 'stock.moved'] });
    // The same events, or the same state: nothing changed, nothing recorded.
    await ok('PATCH', url, { events: ['stock.moved', 'product.created'], enabled: true });
    await ok('PATCH', url, { enabled: false });
    await ok('PATCH', url, { url: 'http://127.0.0.1:9/other/t0ken-2', enabled: true });
    const rotated = await ok('POST', `${url}/secret`, {});
    secrets.push((rotated.json() as { secret: string }).secret);
    // Refused changes leave none: a role that may not, a URL that is not one.
    expect((await api(server, editor, 'PATCH', url, { enabled: false })).statusCode).toBe(403);
    expect((await api(server, owner, 'PATCH', url, { url: 'nope' })).statusCode).toBe(400);
    // A test sends an event but changes nothing.
    await api(server, owner, 'POST', `${url}/test`, {});
    await ok('DELETE', url);

    // Every member reads the log; the endpoint shows by its id and origin only.
    const entries = await entriesOf(viewer, id);
    const hook = (path: string) => ({ id: webhook.id, url: `http://127.0.0.1:9/${path}` });
    expect(seen(entries.filter((entry) => entry.kind.startsWith('webhook.')))).toEqual([
      {
        kind: 'webhook.created',
        actor: 'Olga',
        product: undefined,
        changes: null,
        data: { webhook: hook('…'), events: ['product.created'], enabled: true },
      },
      {
        kind: 'webhook.updated',
        actor: 'Olga',
        product: undefined,
        changes: {
          events: { before: ['product.created'], after: ['product.created', 'stock.moved'] },
        },
        data: { webhook: hook('…') },
      },
      {
        kind: 'webhook.updated',
        actor: 'Olga',
        product: undefined,
        changes: { enabled: { before: true, after: false } },
        data: { webhook: hook('…') },
      },
      {
        kind: 'webhook.updated',
        actor: 'Olga',
        product: undefined,
        changes: {
          url: { before: 'http://127.0.0.1:9/…', after: 'http://127.0.0.1:9/…' },
          enabled: { before: false, after: true },
        },
        data: { webhook: hook('…') },
      },
      {
        kind: 'webhook.secret_rotated',
        actor: 'Olga',
        product: undefined,
        changes: null,
        data: { webhook: hook('…') },
      },
      {
        kind: 'webhook.deleted',
        actor: 'Olga',
        product: undefined,
        changes: null,
        data: { webhook: hook('…'), events: ['product.created', 'stock.moved'] },
      },
    ]);
    const stored = JSON.stringify(
      await db.selectFrom('activity_entries').selectAll().where('catalogue_id', '=', id).execute(),
    );
    for (const hidden of [...secrets, 'whsec_', 't0ken', 's3cret']) {
      expect(stored).not.toContain(hidden);
    }
    for (const entry of entries) expect(entry.undoable).toBe(false);
    // They are no webhook events: an endpoint cannot listen to them.
    const listening = await api(server, owner, 'POST', base, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['webhook.created'],
    });
    expect(listening.statusCode).toBe(400);
  });

  it('records nothing, and sends nothing, for a product edit that changes nothing', async () => {
    const owner = await member(server, 'Olga');
    const { id } = await newCatalogue(server, owner, 'Still');
    const hook = await hookOf(owner, id, ['product.updated']);
    const product = productOf(await createIn(server, owner, id, { name: 'Same', price: '5' }));
    const item = `/api/catalogues/${id}/products/${product.id}`;
    const entries = (await entriesOf(owner, id)).length;
    const events = await liveEvents(id);
    const version = await versionOf(id);
    server.clock.advance(60_000);
    for (const body of [
      { name: 'Same', price: 5 },
      { price: 5, stock: product.stock, tags: [] },
      { description: product.description },
    ]) {
      const res = await api(server, owner, 'PATCH', item, body);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { product: unknown }).product).toEqual(product);
    }
    expect((await entriesOf(owner, id)).length).toBe(entries);
    expect(await liveEvents(id)).toEqual(events);
    expect(await versionOf(id)).toBe(version);
    expect(await deliveries(hook.id)).toEqual([]);
    // A real change is recorded, with that field only.
    const changed = await api(server, owner, 'PATCH', item, { name: 'Same', price: 6 });
    expect(changed.statusCode).toBe(200);
    expect((await entriesOf(owner, id)).at(-1)).toMatchObject({
      kind: 'product.updated',
      changes: { price: { before: 500, after: 600 } },
    });
    expect(await deliveries(hook.id)).toHaveLength(1);
  });
});

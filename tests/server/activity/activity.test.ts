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

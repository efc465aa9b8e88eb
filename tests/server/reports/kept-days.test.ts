import { describe, expect, it } from 'vitest';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import { accounts, PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';
import { createInto, importInto, randomMix } from '../support/random-writes.js';
import { api, member } from '../catalogues/support.js';
import { deadStock, readRaw, stockOverTime, topMovers } from './recompute.js';

const DAY = 86_400_000;

/**
 * The stock over time and the top movers read the days the database keeps as movements are
 * written (migration 033), the top movers through windows moved forward as days pass (migration
 * 041), and the dead stock when each product last moved (migration 042). After any mix of the
 * writes that record movements or change what they are worth or how they sort (creates, edits of
 * price, stock and name, stock changes and counts, deletes one and many, undos of each, imports,
 * moves between locations), days apart on the server's clock and across day boundaries, and with
 * the clock set back, all must answer what a recomputation from the raw movements and today's
 * prices answers, for every period.
 */
describe("the reports' kept days", async () => {
  const server = await build();
  const { db } = server.database;
  const { clock } = server;

  it('answer what the raw movements do, after a random mix of every write', async () => {
    const owner = await member(server, 'Ada');
    let signedInAt = clock.now();
    /** Days on, to the millisecond; signed in again before the session would end. */
    const later = async (ms: number) => {
      clock.advance(ms);
      if (clock.now() - signedInAt < 5 * DAY) return;
      owner.token = await accounts(server).login(owner.email, owner.password);
      owner.headers.authorization = `Bearer ${owner.token}`;
      signedInAt = clock.now();
    };
    // The personal catalogue: it goes with its owner's account at the end.
    const { catalogueId, base, pick, ids, some, target } = randomMix(server, owner, 33);
    const price = () => [0.01, 2.5, 7.99, 99_999_999.99][pick(4)]!;
    const stock = () => [0, 1, 5, 12, 40, 2_147_483_647][pick(6)]!;
    const bin = await api(server, owner, 'POST', `${base}/locations`, {
      name: 'Bin',
      parentId: null,
    });
    const binId = (bin.json() as { location: Location }).location.id;
    const undo = async (kind: string) => {
      const res = await api(server, owner, 'GET', `${base}/activity?kind=${kind}&limit=3`);
      const entry = (res.json() as ActivityResponse).entries[pick(3)];
      if (!entry) return;
      const undone = await api(server, owner, 'POST', `${base}/activity/${entry.id}/undo`);
      if (undone.statusCode < 300 && kind === 'product.deleted') ids.push(entry.product!.id);
    };

    const writes: Record<string, () => Promise<unknown>> = {
      create: () =>
        createInto(target, { name: `I${pick(99)}`, price: price(), stock: stock() % 50 }),
      'edit of price and stock': () =>
        api(server, owner, 'PATCH', `${base}/products/${some()}`, {
          ...(pick(2) ? { price: price() } : {}),
          ...(pick(2) ? { stock: stock() % 100 } : {}),
        }),
      // Ties of the top movers sort by name: a rename moves a product among them.
      rename: () =>
        api(server, owner, 'PATCH', `${base}/products/${some()}`, { name: `R${pick(99)}` }),
      'stock change': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { delta: pick(30) - 12 }),
      'stock count': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { count: stock() }),
      delete: () =>
        api(server, owner, 'DELETE', `${base}/products/${ids.splice(pick(ids.length), 1)[0]}`),
      'bulk delete': () =>
        api(server, owner, 'POST', `${base}/products/bulk-delete`, {
          ids: ids.splice(pick(ids.length), 2),
        }),
      'undo of a stock change': () => undo('stock.moved'),
      'undo of an edit': () => undo('product.updated'),
      'undo of a delete': () => undo('product.deleted'),
      import: async () => {
        const first = pick(ids.length);
        await importInto(target, [
          ['id', 'name', 'price', 'stock', 'description'],
          [ids[first]!, 'Imported', String(price()), String(stock() % 50), 'u'],
          [
            ids[(first + 1) % ids.length]!,
            'Imported again',
            String(price()),
            String(stock() % 50),
            'u',
          ],
          ['', 'Imported new', String(price()), String(stock() % 50), 'n'],
        ]);
      },
      'move between locations': () =>
        api(server, owner, 'POST', `${base}/stock/transfers`, {
          productId: some(),
          from: catalogueId,
          to: binId,
          quantity: 1,
        }),
    };

    const check = async (step: number) => {
      const raw = await readRaw(db, catalogueId);
      const now = clock.now();
      for (const days of [30, 90, 365]) {
        const over = await api(
          server,
          owner,
          'GET',
          `${base}/reports/stock-over-time?days=${days}`,
        );
        expect(over.json(), `stock over ${days} days, step ${step}`).toEqual(
          stockOverTime(raw, now, days),
        );
        for (const limit of [3, 100]) {
          const url = `${base}/reports/top-movers?days=${days}&limit=${limit}`;
          const movers = await api(server, owner, 'GET', url);
          expect(movers.json(), `top ${limit} movers of ${days} days, step ${step}`).toEqual(
            topMovers(raw, now, days, limit),
          );
        }
      }
      for (const limit of [3, 100]) {
        const dead = await api(server, owner, 'GET', `${base}/reports/dead-stock?limit=${limit}`);
        expect(dead.json(), `dead stock, ${limit}, step ${step}`).toEqual(
          deadStock(raw, now, limit),
        );
      }
    };
    /** Where the catalogue's windows start: each period's first day once a report has read it. */
    const starts = async () =>
      (
        await db
          .selectFrom('window_starts')
          .select(['days', 'start_day'])
          .where('catalogue_id', '=', catalogueId)
          .orderBy('days')
          .execute()
      ).map((row) => [row.days, Number(row.start_day)]);
    const firstDays = () =>
      [30, 90, 365].map((days) => [days, Math.floor(clock.now() / DAY) - (days - 1)]);

    const start = clock.now();
    for (let i = 0; i < 10; i += 1) await writes.create!();
    const kinds = Object.keys(writes);
    for (let step = 0; step < 160; step += 1) {
      // Up to six days on, to the millisecond: movements on both sides of midnights, and some
      // that leave the longest period before the end.
      await later(pick(6) * DAY + pick(DAY));
      const kind = ids.length < 6 ? 'create' : kinds[pick(kinds.length)]!;
      await writes[kind]!();
      if (step % 20 === 19) await check(step);
    }
    // Past the last movement: the periods end on days without one.
    await later(40 * DAY);
    await check(160);
    // The writes span more than the longest period.
    expect(clock.now() - start).toBeGreaterThan(400 * DAY);
    // The top movers read the windows, moved forward to each period's first day.
    expect(await starts()).toEqual(firstDays());
    // Two products that moved alike sort by name, and a rename sorts them again.
    await createInto(target, { name: 'Twin A', price: 1, stock: 45 });
    await createInto(target, { name: 'Twin B', price: 1, stock: 45 });
    await check(160);
    await api(server, owner, 'PATCH', `${base}/products/${ids.at(-2)}`, { name: 'Twin Z' });
    await check(160);

    // The clock set back 100 days: periods that start before the windows, movements dated before
    // their starts and before products' last movements; then on again past where it was.
    const ahead = await starts();
    clock.advance(-100 * DAY);
    await check(161);
    for (let step = 162; step < 202; step += 1) {
      await later(pick(DAY));
      await writes[ids.length < 6 ? 'create' : kinds[pick(kinds.length)]!]!();
      if (step % 10 === 1) await check(step);
    }
    expect(await starts()).toEqual(ahead);
    await later(150 * DAY);
    await check(202);
    expect(await starts()).toEqual(firstDays());

    // The owner's account goes, with its catalogue: its kept days go too.
    const res = await api(server, owner, 'DELETE', '/api/auth/user', { password: PASSWORD });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const tables = ['product_days', 'catalogue_days', 'product_windows', 'window_starts'] as const;
    for (const table of tables) {
      const left = await db
        .selectFrom(table)
        .select('catalogue_id')
        .where('catalogue_id', '=', catalogueId)
        .execute();
      expect(left, table).toEqual([]);
    }
  }, 300_000);
});

import { sql, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import { toReorderIn } from '../../../src/server/features/products/reorder.js';
import { PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { createInto, importInto, randomMix } from '../support/random-writes.js';
import { api, member, type Member } from '../catalogues/support.js';

/**
 * The totals the database keeps per catalogue must equal a count of its products from scratch,
 * after any mix of the writes that change them: creates, edits of every counted field, stock
 * changes and counts, deletes one and many, undos of each, imports that create and update, a
 * change of the catalogue's reorder point, and the deletion of the owner's account. So must each
 * product's reorder mark follow the rule.
 */
describe("a catalogue's kept totals", async () => {
  const server = await build();
  const { db } = server.database;
  const recount = (id: string) => recountTotals(db, id);
  const kept = (id: string) => keptTotals(db, id);

  // The list filtered to reorder reads the products marked to reorder (migration 051): the mark
  // must follow the rule through every write, as the totals do.
  const outOfStep = (id: string) =>
    db
      .selectFrom('products')
      .select(['name', 'stock', 'reorder_point', 'reorder_crossed_at'])
      .where('catalogue_id', '=', id)
      .where(sql<SqlBool>`(reorder_crossed_at is not null) <> (${toReorderIn(id)})`)
      .execute();

  const entries = async (user: Member, base: string, kind: string) => {
    const res = await api(server, user, 'GET', `${base}/activity?kind=${kind}&limit=5`);
    return (res.json() as ActivityResponse).entries;
  };

  it('equal a count from scratch after a random mix of every write', async () => {
    const owner = await member(server, 'Ada');
    // The personal catalogue: it goes with its owner's account at the end.
    const { catalogueId, base, pick, ids, some, target } = randomMix(server, owner, 38);
    const price = () => [0.01, 2.5, 99_999_999.99][pick(3)]!;
    const stock = () => [0, 1, 5, 10, 11, 40, 2_147_483_647][pick(7)]!;

    const writes: Record<string, () => Promise<unknown>> = {
      create: () =>
        createInto(target, {
          name: `P${pick(1000)}`,
          price: price(),
          stock: stock() % 100,
          ...(pick(2) ? { cost: price() } : {}),
          ...(pick(2) ? { reorderPoint: pick(20) } : {}),
        }),
      edit: () =>
        api(server, owner, 'PATCH', `${base}/products/${some()}`, {
          ...(pick(2) ? { price: price() } : {}),
          ...(pick(2) ? { stock: stock() % 100 } : {}),
          ...(pick(2) ? { cost: pick(2) ? price() : null } : {}),
          ...(pick(2) ? { reorderPoint: pick(2) ? pick(20) : null } : {}),
        }),
      'stock change': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { delta: pick(30) - 12 }),
      'stock count': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { count: stock() }),
      delete: async () => {
        const id = ids.splice(pick(ids.length), 1)[0]!;
        await api(server, owner, 'DELETE', `${base}/products/${id}`);
      },
      'bulk delete': async () => {
        const gone = ids.splice(pick(ids.length), 2);
        await api(server, owner, 'POST', `${base}/products/bulk-delete`, { ids: gone });
      },
      undo: async () => {
        const kind = ['stock.moved', 'product.updated', 'product.deleted'][pick(3)]!;
        const [entry] = await entries(owner, base, kind);
        if (!entry) return;
        const res = await api(server, owner, 'POST', `${base}/activity/${entry.id}/undo`);
        if (res.statusCode < 300 && kind === 'product.deleted') ids.push(entry.product!.id);
      },
      import: async () => {
        await importInto(target, [
          ['id', 'name', 'price', 'stock', 'description', 'cost', 'reorder point'],
          [some(), 'Imported', String(price()), String(stock() % 50), 'u', '1.00', ''],
          ['', 'Imported new', String(price()), String(stock() % 50), 'n', '', '7'],
        ]);
      },
      'catalogue reorder point': () =>
        api(server, owner, 'PATCH', base, { reorderPoint: [0, 3, 10, 25][pick(4)] }),
    };

    for (let i = 0; i < 12; i += 1) await writes.create!();
    const kinds = Object.keys(writes);
    // Which kinds changed something at least once (an undo may find nothing left to undo).
    const done = new Set<string>();
    const versionOf = async () =>
      (
        await db
          .selectFrom('catalogues')
          .select('version')
          .where('id', '=', catalogueId)
          .executeTakeFirstOrThrow()
      ).version;
    for (let step = 0; step < 150; step += 1) {
      const kind = ids.length < 6 ? 'create' : kinds[pick(kinds.length)]!;
      const before = await versionOf();
      await writes[kind]!();
      if ((await versionOf()) !== before) done.add(kind);
      expect(await kept(catalogueId), `after ${kind} (step ${step})`).toEqual(
        await recount(catalogueId),
      );
      expect(await outOfStep(catalogueId), `marks after ${kind} (step ${step})`).toEqual([]);
    }

    expect([...done].sort()).toEqual([...kinds].sort());

    // The owner's account goes, with its catalogue: its totals go too.
    const res = await api(server, owner, 'DELETE', '/api/auth/user', { password: PASSWORD });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await kept(catalogueId)).toEqual({});
  }, 120_000);
});

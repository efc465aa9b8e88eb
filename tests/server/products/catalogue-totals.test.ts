import { sql, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import { toReorderIn } from '../../../src/server/features/products/reorder.js';
import { PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { catalogueVersion, productWrites, randomMix } from '../support/random-writes.js';
import { api, member } from '../catalogues/support.js';

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

  it('equal a count from scratch after a random mix of every write', async () => {
    const owner = await member(server, 'Ada');
    // The personal catalogue: it goes with its owner's account at the end.
    const mix = randomMix(server, owner, 38);
    const { catalogueId, base, pick, ids, some } = mix;
    const { stock, writes: common, undo } = productWrites(mix, owner);

    const writes: Record<string, () => Promise<unknown>> = {
      create: common.create,
      edit: common.edit,
      'stock change': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { delta: pick(30) - 12 }),
      'stock count': () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, { count: stock() }),
      delete: common.delete,
      'bulk delete': common['bulk delete'],
      undo: () => undo(['stock.moved', 'product.updated', 'product.deleted']),
      import: common.import,
      'catalogue reorder point': common['catalogue reorder point'],
    };

    for (let i = 0; i < 12; i += 1) await writes.create!();
    const kinds = Object.keys(writes);
    // Which kinds changed something at least once (an undo may find nothing left to undo).
    const done = new Set<string>();
    const versionOf = () => catalogueVersion(db, catalogueId);
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

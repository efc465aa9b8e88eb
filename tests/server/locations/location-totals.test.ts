import { describe, expect, it } from 'vitest';
import type { Count } from '../../../src/shared/schemas/counts/counts.js';
import type { Location } from '../../../src/shared/schemas/locations/locations.js';
import type { TotalsPart } from '../../../src/server/infra/db/schema-catalogues.js';
import { heldSum } from '../../../src/server/features/products/held-summary.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';
import { keptPlaces, keptTotals, recountPlaces } from '../support/catalogue-totals.js';
import { catalogueVersion, productWrites, randomMix } from '../support/random-writes.js';
import { api, member } from '../catalogues/support.js';

const PARTS: TotalsPart[] = ['all', 'low', 'out', 'reorder'];

/**
 * What the database keeps per location and part (migration 061) must equal what the summed
 * statement adds up over the location's subtree (held-summary.ts), and its places (066) the stock
 * rows of the subtree counted again, for every location and part,
 * after any mix of the writes that change them: stock changes and counts at a location, transfers,
 * count postings, creates, edits, deletes one and many, undos, imports, the catalogue's point,
 * and locations added, moved and deleted.
 */
describe("the locations' kept totals", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const queries = new ProductQueries(db, dialect);

  const summed = async (catalogueId: string, locationId: string) => {
    const locationIds = (await server.app.locations.subtree(catalogueId, locationId))!;
    const parts = await Promise.all(
      PARTS.map(async (part) => {
        const stock = part === 'all' ? undefined : part;
        const sum = await heldSum(queries, catalogueId, { text: '', stock, locationIds });
        return [
          part,
          {
            count: Number(sum.count),
            units: Number(sum.units),
            costed: Number(sum.costed),
            toReorder: Number(sum.toReorder),
            value: sum.valueCents,
            cost: sum.valueAtCostCents,
          },
        ] as const;
      }),
    );
    return Object.fromEntries(parts);
  };

  it('equal the summed statement for every location after a random mix of every write', async () => {
    const owner = await member(server, 'Lou');
    const mix = randomMix(server, owner, 46);
    const { catalogueId, base, pick, ids, some } = mix;
    const { stock, writes: common, undo } = productWrites(mix, owner);

    const locations = async () =>
      (
        await db
          .selectFrom('locations')
          .select(['id', 'parent_id'])
          .where('catalogue_id', '=', catalogueId)
          .orderBy('id')
          .execute()
      ).map((row) => ({ id: row.id, parentId: row.parent_id }));
    const somewhere = async () => {
      const all = await locations();
      return all[pick(all.length)]!.id;
    };
    /** A place the product holds stock in, and how much. */
    const heldAt = async (productId: string) => {
      const rows = await db
        .selectFrom('stock_levels')
        .select(['location_id', 'quantity'])
        .where('product_id', '=', productId)
        .orderBy('location_id')
        .execute();
      return rows[pick(Math.max(rows.length, 1))];
    };
    let named = 0;
    const place = async (parentId: string | null) => {
      named += 1;
      const res = await api(server, owner, 'POST', `${base}/locations`, {
        name: `Place ${named}`,
        parentId,
      });
      return (res.json() as { location?: Location }).location;
    };

    const writes: Record<string, () => Promise<unknown>> = {
      create: common.create,
      edit: common.edit,
      'stock change at a location': async () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, {
          delta: pick(30) - 8,
          locationId: await somewhere(),
        }),
      'stock count at a location': async () =>
        api(server, owner, 'POST', `${base}/products/${some()}/stock`, {
          count: stock() % 60,
          locationId: await somewhere(),
        }),
      transfer: async () => {
        const lines = [];
        for (const productId of new Set([some(), some()])) {
          const from = await heldAt(productId);
          if (!from) continue;
          const quantity = 1 + pick(from.quantity);
          lines.push({ productId, from: from.location_id, to: await somewhere(), quantity });
        }
        const moving = lines.filter((line) => line.from !== line.to);
        if (moving.length === 0) return;
        await api(server, owner, 'POST', `${base}/stock/transfers`, { lines: moving });
      },
      'count posted': async () => {
        const where = await somewhere();
        const res = await api(server, owner, 'POST', `${base}/counts`, {
          scope: { kind: 'location', locationId: where },
        });
        if (res.statusCode !== 201) return;
        const { count } = res.json() as { count: Count };
        const scope = (await server.app.locations.subtree(catalogueId, where))!;
        for (let line = 0; line < 3; line += 1) {
          await api(server, owner, 'POST', `${base}/counts/${count.id}/lines`, {
            productId: some(),
            locationId: scope[pick(scope.length)],
            counted: pick(3) === 0 ? 0 : pick(30),
          });
        }
        const posted = await api(server, owner, 'POST', `${base}/counts/${count.id}/post`, {});
        if (posted.statusCode >= 300) {
          await api(server, owner, 'POST', `${base}/counts/${count.id}/cancel`);
        }
      },
      delete: common.delete,
      'bulk delete': common['bulk delete'],
      undo: () =>
        undo([
          'stock.moved',
          'stock.transferred',
          'count.posted',
          'product.updated',
          'product.deleted',
        ]),
      import: common.import,
      'catalogue reorder point': common['catalogue reorder point'],
      'location added': async () => {
        await place(pick(3) === 0 ? null : await somewhere());
      },
      'location moved': async () => {
        const all = await locations();
        const moved = all[pick(all.length)]!;
        const parent = pick(4) === 0 ? null : all[pick(all.length)]!.id;
        await api(server, owner, 'PATCH', `${base}/locations/${moved.id}`, { parentId: parent });
      },
      'location deleted': async () => {
        const all = await locations();
        const leaves = all.filter(
          (one) => one.id !== catalogueId && !all.some((other) => other.parentId === one.id),
        );
        const empty = [];
        for (const leaf of leaves) {
          const held = await db
            .selectFrom('stock_levels')
            .select('product_id')
            .where('location_id', '=', leaf.id)
            .executeTakeFirst();
          if (!held) empty.push(leaf);
        }
        if (empty.length === 0) return;
        await api(server, owner, 'DELETE', `${base}/locations/${empty[pick(empty.length)]!.id}`);
      },
    };

    // A tree to start with: two warehouses of two aisles, each with a bin.
    for (const warehouse of [await place(null), await place(null)]) {
      for (const aisle of [await place(warehouse!.id), await place(warehouse!.id)]) {
        await place(aisle!.id);
      }
    }
    for (let i = 0; i < 12; i += 1) await writes.create!();

    const versionOf = () => catalogueVersion(db, catalogueId);
    const compare = async (label: string) => {
      // A place holding nothing has no row: every write deletes the rows it empties.
      const empty = await db
        .selectFrom('stock_levels')
        .select(['product_id', 'location_id', 'quantity'])
        .where('catalogue_id', '=', catalogueId)
        .where('quantity', '<=', 0)
        .execute();
      expect(empty, `${label}, stock rows holding nothing`).toEqual([]);
      for (const { id } of await locations()) {
        expect(await keptTotals(db, catalogueId, id), `${label}, location ${id}`).toEqual(
          await summed(catalogueId, id),
        );
        const subtree = (await server.app.locations.subtree(catalogueId, id))!;
        expect(await keptPlaces(db, catalogueId, id), `${label}, places of ${id}`).toEqual(
          await recountPlaces(db, catalogueId, subtree),
        );
      }
    };
    await compare('before the writes');
    const kinds = Object.keys(writes);
    // Which kinds changed something at least once (an undo may find nothing left to undo).
    const done = new Set<string>();
    for (let step = 0; step < 220; step += 1) {
      // Every kind in turn: the seeded generator's draws repeat too soon to pick among 14 kinds.
      const kind = ids.length < 6 ? 'create' : kinds[step % kinds.length]!;
      const before = await versionOf();
      await writes[kind]!();
      if ((await versionOf()) !== before) done.add(kind);
      await compare(`after ${kind} (step ${step})`);
    }
    expect([...done].sort()).toEqual([...kinds].sort());

    // The catalogue goes with its owner's account: its locations' rows go too.
    const mine = (await locations()).map((one) => one.id);
    const res = await api(server, owner, 'DELETE', '/api/auth/user', { password: PASSWORD });
    expect(res.statusCode, res.body).toBeLessThan(300);
    for (const table of ['location_totals', 'location_holdings', 'location_paths'] as const) {
      const left = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('location_id', 'in', mine)
        .executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }
  }, 240_000);
});

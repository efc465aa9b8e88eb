import { describe, expect, it } from 'vitest';
import { recordMovements } from '../../../src/server/features/products/movements.js';
import { newProductRow } from '../../../src/server/features/products/write-helpers.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { createProduct } from '../support/products.js';

/**
 * The totals and days the database keeps leave out a pending import's products, as every read
 * does: inserting them with their movements, changing them, a change of the catalogue's point
 * and deleting them (a failed import swept) change no kept total and no catalogue day.
 */
describe("a pending import's products in the kept totals and days", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await signIn(server);
  const first = await createProduct(server, owner, { name: 'Visible', stock: '4', price: '3' });
  const { catalogue_id: catalogueId } = await db
    .selectFrom('products')
    .select('catalogue_id')
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow();
  const days = () =>
    db
      .selectFrom('catalogue_days')
      .selectAll()
      .where('catalogue_id', '=', catalogueId)
      .orderBy('day')
      .execute();

  it('count none of them, whatever is written', async () => {
    const before = { totals: await keptTotals(db, catalogueId), days: await days() };
    expect(before.totals).toEqual(await recountTotals(db, catalogueId));
    const now = Date.now();
    await db
      .insertInto('pending_imports')
      .values({
        id: 'pending',
        catalogue_id: catalogueId,
        lease_until: now + 60_000,
        created_at: now,
      })
      .execute();
    const staged = [0, 5, 12].map((stock, i) => ({
      ...newProductRow(
        catalogueId,
        null,
        { name: `Staged ${i}`, description: '', priceCents: 250 + i, stock, image: null },
        now,
      ),
      import_id: 'pending',
    }));
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('products').values(staged).execute();
      const movements = staged.map((row) => ({
        productId: row.id,
        oldStock: 0,
        newStock: row.stock,
        source: 'import' as const,
        at: now,
      }));
      await recordMovements({ trx, dialect, catalogueId, actorId: null }, movements);
    });
    const unchanged = async () => {
      expect(await keptTotals(db, catalogueId)).toEqual(before.totals);
      expect(await recountTotals(db, catalogueId)).toEqual(before.totals);
      expect(await days()).toEqual(before.days);
    };
    await unchanged();

    await db
      .updateTable('products')
      .set({ stock: 3, price_cents: 999, cost_cents: 10, reorder_point: 50 })
      .where('id', '=', staged[1]!.id)
      .execute();
    await unchanged();

    // The catalogue's point moves the products between it and the old one: not these.
    await db
      .updateTable('catalogues')
      .set({ reorder_point: 20 })
      .where('id', '=', catalogueId)
      .execute();
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
    before.totals = await keptTotals(db, catalogueId);

    await db.deleteFrom('products').where('import_id', '=', 'pending').execute();
    await unchanged();
  });
});

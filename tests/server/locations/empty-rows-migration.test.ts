import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { migrateAgainFrom } from '../support/legacy-database.js';
import { keptPlaces, keptTotals } from '../support/catalogue-totals.js';
import { productIdsOf } from '../support/products.js';
import { numberedCatalogue, stockedWarehouse } from '../support/statement-plans.js';

/**
 * Migration 067 deletes the stock rows at 0 an undo of a count that changed nothing left behind:
 * a bin given such a row counts the product and the place in its totals and those above it; after
 * the migration every location's totals are what they were before the row was made.
 */
describe('the migration of stock rows holding nothing', async () => {
  const server = await build();
  const { db, dialect } = server.database;

  it('takes them and what they added to the totals away', async () => {
    const catalogueId = await numberedCatalogue(server.database, 'shop@example.com', 30);
    const { bins } = await stockedWarehouse(db, catalogueId, [0, 5]);
    const locations = await db
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .execute();
    const kept = async () =>
      Promise.all(
        locations.map(async ({ id }) => ({
          id,
          totals: await keptTotals(db, catalogueId, id),
          places: await keptPlaces(db, catalogueId, id),
        })),
      );
    const before = await kept();

    // The first product holds stock in bins 0 and 5 only; a row at 0 in an empty bin.
    const [first] = await productIdsOf(db, catalogueId);
    const empty = bins[100]!;
    await db
      .insertInto('stock_levels')
      .values({ product_id: first!, location_id: empty, catalogue_id: catalogueId, quantity: 0 })
      .execute();
    const phantom = await keptPlaces(db, catalogueId, empty);
    expect(phantom.all).toBe(1);

    const { applied, again } = await migrateAgainFrom(db, dialect, '067_drop_empty_stock_rows');
    expect(applied).toEqual(again);
    const zero = await db.selectFrom('stock_levels').select('product_id').where('quantity', '=', 0);
    expect(await zero.execute()).toEqual([]);
    expect(await kept()).toEqual(before);
  });
});

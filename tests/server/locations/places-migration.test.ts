import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { migrateAgainFrom } from '../support/legacy-database.js';
import { keptPlaces, recountPlaces } from '../support/catalogue-totals.js';
import { makePending } from '../support/pending-imports.js';
import { productIdsOf } from '../support/products.js';
import { numberedCatalogue, stockedWarehouse } from '../support/statement-plans.js';

/**
 * Migration 066 fills each location's places from what exists when it runs, and may run again:
 * a catalogue with stock in a warehouse's bins and in its default location, some of it a pending
 * import's, has its places wiped and the migration applied once more; every location's places, in
 * every part, are then the stock rows of its subtree counted again.
 */
describe('the places migration on a populated database', async () => {
  const server = await build();
  const { db, dialect } = server.database;

  it("fills every location's places from its subtree's stock rows", async () => {
    // The first product with stock in the default location, every one of them in three bins.
    const catalogueId = await numberedCatalogue(server.database, 'shop@example.com', 60, (i) =>
      i === 0 ? { stock: 4 } : {},
    );
    await stockedWarehouse(db, catalogueId, [0, 3, 17]);
    const ids = await productIdsOf(db, catalogueId);
    await makePending(db, [ids[7]!, ids[8]!]);

    await sql`update location_totals set places = 999`.execute(db);
    const { applied, again } = await migrateAgainFrom(db, dialect, '066_location_places');
    expect(applied).toEqual(again);

    const locations = await db
      .selectFrom('locations')
      .select('id')
      .where('catalogue_id', '=', catalogueId)
      .execute();
    expect(locations.length).toBeGreaterThan(200);
    let held = 0;
    for (const { id } of locations) {
      const subtree = (await server.app.locations.subtree(catalogueId, id))!;
      const recounted = await recountPlaces(db, catalogueId, subtree);
      expect(await keptPlaces(db, catalogueId, id), id).toEqual(recounted);
      held += recounted.all!;
    }
    // Each visible product's three bins, counted in the bin, its aisle and its warehouse, and
    // the first one's place in the default location.
    expect(held).toBe(58 * 3 * 3 + 1);
  });
});

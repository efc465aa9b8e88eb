import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import { emptyDatabase, migrateAsOldRunner } from '../../support/legacy-database.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A database as it was before stock was kept per location, with products in two catalogues (one
 * with nothing in stock), migrated by the app's start: all the stock is in each catalogue's
 * default location, its total the products' sum.
 */
describe('migration 032 on a populated database', () => {
  it('puts every existing unit in its catalogue’s default location', async () => {
    const { db, options, drop } = await emptyDatabase();
    try {
      await migrateAsOldRunner(db, '031_stock_levels');
      const catalogues = [id(1), id(2), id(3)];
      for (const catalogue of catalogues) {
        await sql`insert into catalogues (id, name, personal, created_at, updated_at)
          values (${catalogue}, 'Shop', 0, 0, 0)`.execute(db);
      }
      const stocks = [
        [id(1), [5, 0, 12]],
        [id(2), [7]],
        [id(3), [0]],
      ] as const;
      let n = 100;
      for (const [catalogue, each] of stocks) {
        for (const stock of each) {
          n += 1;
          await sql`insert into products (id, catalogue_id, name, name_key, description,
              search_key, price_cents, stock, active, tags, created_at, updated_at)
            values (${id(n)}, ${catalogue}, 'Tray', 'tray', '', 'tray', 100, ${stock}, 1, '[]',
              0, 0)`.execute(db);
        }
      }
      await db.destroy();
      const handle = await openDatabase(options);
      try {
        const levels = await handle.db
          .selectFrom('stock_levels')
          .select(['product_id', 'location_id', 'catalogue_id', 'quantity'])
          .orderBy('product_id')
          .execute();
        expect(levels).toEqual([
          { product_id: id(101), location_id: id(1), catalogue_id: id(1), quantity: 5 },
          { product_id: id(103), location_id: id(1), catalogue_id: id(1), quantity: 12 },
          { product_id: id(104), location_id: id(2), catalogue_id: id(2), quantity: 7 },
        ]);
        const units = await handle.db
          .selectFrom('locations')
          .select(['id', 'units'])
          .orderBy('id')
          .execute();
        expect(units.map((row) => [row.id, Number(row.units)])).toEqual([
          [id(1), 17],
          [id(2), 7],
          [id(3), 0],
        ]);
      } finally {
        await handle.close();
      }
    } finally {
      await drop();
    }
  });
});

import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/infra/db/migrate.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../support/legacy-database.js';

const SHOP = '0a1b2c3d-0000-4000-8000-000000000001';
const CLASH = 'ffee0011-2233-4000-8000-445566778899';
const LATER = '12345678-9abc-4def-8000-000000000003';

/** A populated database as the migration before locations left it: two catalogues with products and stock. */
async function populatedBeforeLocations() {
  const database = await emptyDatabase();
  const { db } = database;
  await migrateAsOldRunner(db, '028_locations');
  await sql`insert into catalogues (id, name, personal, created_at, updated_at)
    values (${SHOP}, 'Shop', 0, 1, 1), (${CLASH}, 'Clash', 0, 2, 2)`.execute(db);
  for (const [n, catalogue, stock, sku] of [
    [1, SHOP, 7, null],
    [2, SHOP, 5, 'TRAY-1'],
    // A SKU that is the code the clashing catalogue's default would get.
    [3, CLASH, 2, 'l-ffee00'],
  ] as const) {
    await sql`insert into products (id, catalogue_id, name, name_key, description, search_key,
        price_cents, stock, active, image_key, created_at, updated_at, tags, sku, sku_key)
      values (${`00000000-0000-4000-8000-00000000000${n}`}, ${catalogue}, ${`P${n}`}, ${`p${n}`},
        '', ${`p${n}`}, 100, ${stock}, 1, null, ${n}, ${n}, '[]', ${sku}, ${sku?.toLowerCase() ?? null})`.execute(
      db,
    );
  }
  return database;
}

const locationsOf = (db: Kysely<unknown>, catalogueId: string) =>
  sql<{ id: string; parent_id: string | null; name: string; code: string }>`
    select id, parent_id, name, code from locations where catalogue_id = ${catalogueId}`
    .execute(db)
    .then((result) => result.rows);

describe('the locations migration on a populated database', async () => {
  const database = await populatedBeforeLocations();
  afterAll(database.drop);
  const db = database.db as unknown as Kysely<unknown>;
  const applied = await migrate(db, dialect);

  it("gives every catalogue its default location, never on a product's code", async () => {
    expect(applied[0]).toBe('028_locations');
    expect(await locationsOf(db, SHOP)).toEqual([
      { id: SHOP, parent_id: null, name: 'Main', code: 'L-0A1B2C' },
    ]);
    expect(await locationsOf(db, CLASH)).toEqual([
      { id: CLASH, parent_id: null, name: 'Main', code: 'L-112233' },
    ]);
  });

  it('gives one to every catalogue made afterwards, once', async () => {
    for (let time = 0; time < 2; time += 1) {
      await sql`insert into catalogues (id, name, personal, created_at, updated_at)
        values (${LATER}, 'Later', 1, 5, 5)
        on conflict (id) do update set name = catalogues.name`.execute(db);
    }
    expect(await locationsOf(db, LATER)).toEqual([
      { id: LATER, parent_id: null, name: 'Main', code: 'L-123456' },
    ]);
    // And they go with their catalogue.
    await sql`delete from catalogues where id = ${LATER}`.execute(db);
    expect(await locationsOf(db, LATER)).toEqual([]);
  });
});

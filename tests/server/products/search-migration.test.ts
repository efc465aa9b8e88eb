import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/infra/db/migrate.js';
import {
  SEARCH_DESCRIPTION_MAX,
  SEARCH_NAME_MAX,
} from '../../../src/server/features/products/keys.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../support/legacy-database.js';

/** A database as it was before migration 005, with rows whose search keys were never capped. */
describe('migration 005 on a database that already has products', async () => {
  const { db, drop } = await emptyDatabase();
  afterAll(drop);
  await migrateAsOldRunner(db, '005_product_search_index');
  await db
    .insertInto('users')
    .values({
      id: 'u1',
      name: 'Old',
      email: 'old@example.com',
      password_hash: 'x',
      confirmed: 1,
      created_at: 0,
      updated_at: 0,
    })
    .execute();
  // The columns of a product row before migration 012 (the insert's type is today's).
  const old = (id: string, name: string, description: string, searchKey: string): never =>
    ({
      id,
      owner_id: 'u1',
      name,
      name_key: name.toLowerCase(),
      description,
      search_key: searchKey,
      price_cents: 100,
      stock: 1,
      active: 1,
      image_key: null,
      created_at: Number(id.slice(-1)),
      updated_at: 0,
    }) as never;
  const blessing = '\uFDFA'.repeat(5000);
  const unfolded = blessing.normalize('NFKD');
  await db
    .insertInto('products')
    .values([
      // As the app wrote keys before: folded, never capped (90,000 characters).
      old('00000000-0000-4000-8000-000000000001', 'Blessing', blessing, `blessing\n${unfolded}`),
      // As migration 002 filled rows that predate it: ASCII-only lower case.
      old('00000000-0000-4000-8000-000000000002', 'Émile chair', 'Oak', 'Émile chair oak'),
    ])
    .execute();
  await migrate(db as unknown as Kysely<unknown>, dialect);
  const repository = new ProductRepository(db, dialect);
  const names = async (q: string) =>
    (await repository.list('u1', { sort: 'name', limit: 10, q })).rows.map((row) => row.name);

  it('recomputes every key with the capped fold and indexes them', async () => {
    const keys = await db.selectFrom('products').select('search_key').orderBy('id').execute();
    expect(keys[0]!.search_key.length).toBeLessThanOrEqual(
      SEARCH_NAME_MAX + 1 + SEARCH_DESCRIPTION_MAX,
    );
    expect(keys[1]!.search_key).toBe('emile chair\noak');
    expect(await names('emile')).toEqual(['Émile chair']);
    expect(await names('\uFDFA'.repeat(11))).toEqual(['Blessing']);
    expect(await names('chair\noak')).toEqual(['Émile chair']);
    if (dialect === 'sqlite') {
      await sql`insert into product_search(product_search, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    }
  });
});

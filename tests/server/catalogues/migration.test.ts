import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../src/server/infra/db/migrate.js';
import type { Database } from '../../../src/server/infra/db/schema.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import {
  emptyDatabase,
  migrateAsOldRunner,
  testDialect as dialect,
} from '../support/legacy-database.js';

const ALICE = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';
const productId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A database as migration 015 left it, with two users' products, tags, movements and events. */
async function databaseAt015() {
  const database = await emptyDatabase();
  const { db } = database;
  await migrateAsOldRunner(db, '016_catalogues');
  const long = 'L'.repeat(50);
  await sql`insert into users (id, name, email, password_hash, confirmed, created_at, updated_at,
      catalogue_version)
    values (${ALICE}, 'Alice', 'alice@example.com', 'x', 1, 1, 1, 7),
      (${BOB}, ${long}, 'bob@example.com', 'x', 1, 2, 2, 0)`.execute(db);
  for (const [n, owner, name] of [
    [1, ALICE, 'Walnut tray'],
    [2, ALICE, 'Teak bowl'],
    [3, BOB, 'Maple spoon'],
  ] as const) {
    await sql`insert into products (id, owner_id, name, name_key, description, search_key,
        price_cents, stock, active, image_key, created_at, updated_at, tags)
      values (${productId(n)}, ${owner}, ${name}, ${name.toLowerCase()}, '',
        ${name.toLowerCase()}, 100, ${n}, 1, null, ${n}, ${n}, '["wood"]')`.execute(db);
    await sql`insert into product_tags (product_id, owner_id, tag_key)
      values (${productId(n)}, ${owner}, 'wood')`.execute(db);
    await sql`insert into stock_movements (product_id, owner_id, created_at, old_stock, new_stock,
        delta, source) values (${productId(n)}, ${owner}, ${n}, 0, ${n}, ${n}, 'create')`.execute(
      db,
    );
  }
  // Five events, the newest two pruned: their ids must never be given again.
  for (let i = 0; i < 5; i += 1) {
    await sql`insert into live_events (owner_id, kind, data, created_at)
      values (${ALICE}, 'import.done', '{}', ${i})`.execute(db);
  }
  await sql`delete from live_events where id > 3`.execute(db);
  return database;
}

const count = async (db: Kysely<Database>, table: string) =>
  Number(
    (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!
      .n,
  );

/** Which table each foreign key of `table` on `column` refers to. */
async function referencedBy(db: Kysely<Database>, table: string, column: string) {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ table: string; from: string }>`
      select "table", "from" from pragma_foreign_key_list(${table})`.execute(db);
    return rows.filter((row) => row.from === column).map((row) => row.table);
  }
  const { rows } = await sql<{ parent: string }>`
    select confrelid::regclass::text as parent from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.conrelid = ${table}::regclass and a.attname = ${column}`.execute(
    db,
  );
  return rows.map((row) => row.parent);
}

describe('migration 016 on a database with users and products', async () => {
  const { db, drop } = await databaseAt015();
  afterAll(drop);
  const applied = await migrate(db as unknown as Kysely<unknown>, dialect);

  it('runs once, with every migration after it', () => {
    const from016 = migrations.findIndex((m) => m.name === '016_catalogues');
    expect(applied).toEqual(migrations.slice(from016).map((m) => m.name));
  });

  it("gives every user a personal catalogue with the user's id, owned by them", async () => {
    const catalogues = await db
      .selectFrom('catalogues')
      .select(['id', 'name', 'personal', 'version'])
      .orderBy('id')
      .execute();
    expect(catalogues.map((row) => ({ ...row, version: Number(row.version) }))).toEqual([
      { id: ALICE, name: "Alice's catalogue", personal: 1, version: 7 },
      // Within the limit of a name: the user's name is cut short.
      { id: BOB, name: `${'L'.repeat(38)}'s catalogue`, personal: 1, version: 0 },
    ]);
    expect(
      await db
        .selectFrom('catalogue_members')
        .select(['catalogue_id', 'user_id', 'role'])
        .orderBy('catalogue_id')
        .execute(),
    ).toEqual([
      { catalogue_id: ALICE, user_id: ALICE, role: 'owner' },
      { catalogue_id: BOB, user_id: BOB, role: 'owner' },
    ]);
  });

  it('keeps every row, now in the catalogue of its former owner', async () => {
    expect(await count(db, 'products')).toBe(3);
    expect(await count(db, 'product_tags')).toBe(3);
    expect(await count(db, 'stock_movements')).toBe(3);
    expect(await count(db, 'live_events')).toBe(3);
    const products = await db
      .selectFrom('products')
      .select(['id', 'catalogue_id', 'created_by', 'updated_by'])
      .orderBy('id')
      .execute();
    expect(products).toEqual([
      { id: productId(1), catalogue_id: ALICE, created_by: null, updated_by: null },
      { id: productId(2), catalogue_id: ALICE, created_by: null, updated_by: null },
      { id: productId(3), catalogue_id: BOB, created_by: null, updated_by: null },
    ]);
    const movements = await db
      .selectFrom('stock_movements')
      .select(['product_id', 'catalogue_id', 'actor_id'])
      .orderBy('id')
      .execute();
    expect(movements.map((row) => row.catalogue_id)).toEqual([ALICE, ALICE, BOB]);
    expect(movements.every((row) => row.actor_id === null)).toBe(true);
  });

  it('points the catalogue columns at catalogues and the new ones at users', async () => {
    for (const table of ['products', 'stock_movements', 'product_tags', 'live_events']) {
      expect(await referencedBy(db, table, 'catalogue_id'), table).toEqual(['catalogues']);
    }
    expect(await referencedBy(db, 'stock_movements', 'actor_id')).toEqual(['users']);
    expect(await referencedBy(db, 'products', 'created_by')).toEqual(['users']);
    expect(await referencedBy(db, 'activity_entries', 'catalogue_id')).toEqual(['catalogues']);
    expect(await referencedBy(db, 'activity_entries', 'product_id')).toEqual([]);
    expect(await referencedBy(db, 'idempotency_keys', 'owner_id')).toEqual(['users']);
    if (dialect === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
    }
  });

  it('keeps search working on the rows it rebuilt', async () => {
    const repository = new ProductRepository(db, dialect);
    const names = async (owner: string, q: string) =>
      (await repository.list(owner, { sort: 'name', limit: 10, q })).rows.map((row) => row.name);
    expect(await names(ALICE, 'walnut')).toEqual(['Walnut tray']);
    expect(await names(ALICE, 'maple')).toEqual([]);
    expect(await names(BOB, 'maple')).toEqual(['Maple spoon']);
    if (dialect === 'sqlite') {
      await sql`insert into product_search(product_search, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    }
  });

  it('never gives a pruned event id again', async () => {
    const { id } = await db
      .insertInto('live_events')
      .values({ catalogue_id: ALICE, kind: 'import.done', data: '{}', created_at: 9 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(id)).toBe(6);
  });

  it("deletes a catalogue's products, tags, movements and events with it", async () => {
    await db.deleteFrom('catalogues').where('id', '=', BOB).execute();
    expect(
      await db.selectFrom('products').select('id').where('catalogue_id', '=', BOB).execute(),
    ).toEqual([]);
    expect(await count(db, 'product_tags')).toBe(2);
    expect(await count(db, 'stock_movements')).toBe(2);
    expect(await count(db, 'catalogue_members')).toBe(1);
  });

  it('deletes a personal catalogue with its account', async () => {
    await db.deleteFrom('users').where('id', '=', ALICE).execute();
    expect(await count(db, 'catalogues')).toBe(0);
    expect(await count(db, 'products')).toBe(0);
  });
});

describe.skipIf(dialect !== 'sqlite')('migration 016 and a dangling row', () => {
  // In hooks: a skipped suite's body still runs (on PostgreSQL), its hooks do not.
  let database: Awaited<ReturnType<typeof databaseAt015>>;
  beforeAll(async () => {
    database = await databaseAt015();
  });
  afterAll(() => database.drop());

  it('fails, changing nothing, when a row refers to no user', async () => {
    const { db } = database;
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into stock_movements (product_id, owner_id, created_at, old_stock, new_stock,
        delta, source) values (${productId(1)}, 'nobody', 9, 0, 1, 1, 'create')`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
    await expect(migrate(db as unknown as Kysely<unknown>, dialect)).rejects.toThrow(
      /dangling foreign key: .*stock_movements -> catalogues/,
    );
    const columns = await sql<{ name: string }>`
      select name from pragma_table_info('products')`.execute(db);
    expect(columns.rows.map((row) => row.name)).toContain('owner_id');
    expect(await count(db, 'products')).toBe(3);
    expect((await sql<{ n: number }>`pragma foreign_keys`.execute(db)).rows).toEqual([
      { foreign_keys: 1 },
    ]);
  });
});

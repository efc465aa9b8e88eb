import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { IMPORT_CHANGE_FIELDS } from '../../../src/shared/schemas/catalogue.js';
import { signIn } from '../support/accounts.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { allProducts, countProductWrites, csvText, importCsv } from '../support/products.js';

/** Products enough for several batches of the write (100 rows each) and every kind of change. */
const ROWS = 260;
/** The id, then the columns an import can change but the barcode and reorder quantity (left alone). */
const HEADER = [
  'id',
  ...IMPORT_CHANGE_FIELDS.filter((field) => field !== 'barcode' && field !== 'reorderQuantity'),
];

interface Row {
  id: string;
  name: string;
  price: string;
  stock: number;
  description: string;
  tags: string;
  cost: string;
  sku: string;
  reorderPoint: string;
}
const cells = (row: Row) => HEADER.map((column) => String(row[column as keyof Row]));

/**
 * A re-import writes its matched rows a group at a time (the rows that change the same columns in
 * one statement): each product must end with exactly its row's fields, whichever columns its row
 * changes beside the others', with one movement per change of stock, its tags as written, and
 * the kept totals equal to a count from scratch.
 */
describe('a re-import whose rows change different columns', async () => {
  const server = await build();
  const db = server.database.db;

  it('writes every row as its own, and the totals, tags and movements with it', async () => {
    const user = await signIn(server);
    const first: Row[] = Array.from({ length: ROWS }, (_, i) => ({
      id: '',
      name: `Lamp ${i}`,
      price: `${(i % 40) + 1}.50`,
      stock: i % 30,
      description: `Desk lamp ${i}`,
      tags: i % 2 === 0 ? 'desk' : '',
      cost: i % 3 === 0 ? '' : '1.25',
      sku: `L-${i}`,
      reorderPoint: i % 4 === 0 ? '5' : '',
    }));
    const created = await importCsv(
      server,
      user,
      csvText([HEADER.slice(1), ...first.map((row) => cells(row).slice(1))]),
    );
    expect(created.json()).toMatchObject({ created: ROWS });
    const ids = new Map(
      (await allProducts(server, user)).map((product) => [product.name, product.id]),
    );
    const before = first.map((row) => ({ ...row, id: ids.get(row.name)! }));
    const { catalogue_id: catalogueId } = await db
      .selectFrom('products')
      .select('catalogue_id')
      .where('id', '=', before[0]!.id)
      .executeTakeFirstOrThrow();
    // Each row changes a different set of columns, one in six none at all.
    const after = before.map((row, i): Row => {
      switch (i % 6) {
        case 0:
          return { ...row, stock: row.stock + 3 };
        case 1:
          return { ...row, price: '99.99', stock: 0 };
        case 2:
          return { ...row, name: `Renamed lamp ${i}`, description: 'Floor lamp' };
        case 3:
          return { ...row, tags: 'floor; sale', cost: row.cost === '' ? '2.00' : '' };
        case 4:
          return {
            ...row,
            sku: `N-${i}`,
            reorderPoint: row.reorderPoint === '' ? '40' : '',
            stock: 1,
          };
        default:
          return row;
      }
    });
    const res = await importCsv(server, user, csvText([HEADER, ...after.map(cells)]));
    const changed = after.filter((_, i) => i % 6 !== 5).length;
    expect(res.json()).toMatchObject({ created: 0, updated: changed, unchanged: ROWS - changed });

    const products = new Map(
      (
        await db
          .selectFrom('products')
          .select([
            'id',
            'name',
            'price_cents',
            'stock',
            'description',
            'tags',
            'cost_cents',
            'sku',
            'reorder_point',
          ])
          .where('catalogue_id', '=', catalogueId)
          .execute()
      ).map((p) => [p.id, p]),
    );
    const cents = (price: string) => Math.round(Number(price) * 100);
    for (const row of after) {
      const product = products.get(row.id)!;
      expect({ ...product, price_cents: Number(product.price_cents) }).toEqual({
        id: row.id,
        name: row.name,
        price_cents: cents(row.price),
        stock: row.stock,
        description: row.description,
        tags: JSON.stringify(row.tags === '' ? [] : row.tags.split('; ')),
        cost_cents: row.cost === '' ? null : cents(row.cost),
        sku: row.sku,
        reorder_point: row.reorderPoint === '' ? null : Number(row.reorderPoint),
      });
    }
    // One import movement per change of stock, from the stock the product had.
    const movements = await db
      .selectFrom('stock_movements')
      .select(['product_id', 'old_stock', 'new_stock'])
      .where('catalogue_id', '=', catalogueId)
      .where('source', '=', 'import')
      .where('old_stock', '!=', 0)
      .execute();
    const moved = before
      .map((row, i) => ({ row, next: after[i]! }))
      .filter(({ row, next }) => row.stock !== next.stock && row.stock !== 0);
    expect(movements.length).toBe(moved.length);
    const byProduct = new Map(movements.map((m) => [m.product_id, m]));
    for (const { row, next } of moved) {
      expect(byProduct.get(row.id)).toMatchObject({ old_stock: row.stock, new_stock: next.stock });
    }
    // The folded tags follow the rows' tags.
    const tagged = await db
      .selectFrom('product_tags')
      .select(['product_id', 'tag_key'])
      .where('catalogue_id', '=', catalogueId)
      .execute();
    const tagsOf = (id: string) =>
      tagged
        .filter((t) => t.product_id === id)
        .map((t) => t.tag_key)
        .sort();
    for (const row of after) {
      expect(tagsOf(row.id)).toEqual(row.tags === '' ? [] : row.tags.split('; ').sort());
    }
    expect(await keptTotals(db, catalogueId)).toEqual(await recountTotals(db, catalogueId));
    // The rows that change a SKU (written at the commit) and the others (on SQLite after it):
    // the catalogue's days add up its movements, and nothing is left to apply.
    const { rows: days } = await sql<{ kept: number | string; counted: number | string }>`select
        (select coalesce(sum(units), 0) from catalogue_days where catalogue_id = ${catalogueId}) as kept,
        (select coalesce(sum(delta), 0) from stock_movements where catalogue_id = ${catalogueId}) as counted`.execute(
      db,
    );
    expect(Number(days[0]!.kept)).toBe(Number(days[0]!.counted));
    expect(await db.selectFrom('import_updates').select('product_id').execute()).toEqual([]);
    expect(await db.selectFrom('import_applies').select('id').execute()).toEqual([]);
  });
});

/**
 * A re-import writes its matched products in the order of their ids, whatever the file's order:
 * most of what a change of stock writes (the product, its days, its windows, its movements by
 * product) is keyed by the product's id, so a batch of neighbours writes a few pages of each
 * instead of one page per row, the whole catalogue's worth over a large re-import.
 */
describe("a re-import in an order other than its products' ids", async () => {
  const server = await build();
  const db = server.database.db;

  it('writes the products, and records their movements, in the order of their ids', async () => {
    const user = await signIn(server);
    const rows = Array.from({ length: ROWS }, (_, i) => [
      `Shelf ${i}`,
      '3.00',
      String(i + 1),
      'Oak',
    ]);
    const created = await importCsv(
      server,
      user,
      csvText([['name', 'price', 'stock', 'description'], ...rows]),
    );
    expect(created.json()).toMatchObject({ created: ROWS });
    const products = await allProducts(server, user);
    // The file lists them from the highest id down, each stock one more.
    const file = [...products].sort((a, b) => (a.id < b.id ? 1 : -1));
    const res = await importCsv(
      server,
      user,
      csvText([
        ['id', 'name', 'price', 'stock', 'description'],
        ...file.map((p) => [p.id, p.name, '3.00', String(p.stock + 1), 'Oak']),
      ]),
    );
    expect(res.json()).toMatchObject({ created: 0, updated: ROWS });
    // The re-import's movements (every creation's starts from 0), in the order they were written.
    const written = await db
      .selectFrom('stock_movements')
      .select('product_id')
      .where(
        'product_id',
        'in',
        products.map((p) => p.id),
      )
      .where('old_stock', '>', 0)
      .orderBy('id')
      .execute();
    const ids = products.map((p) => p.id).sort((a, b) => (a < b ? -1 : 1));
    expect(written.map((m) => m.product_id)).toEqual(ids);
  });
});

/**
 * A re-import's change of stock sets when the product last moved in the same write as its stock,
 * as a count's posting does: the movements' trigger then finds it set (migration 042) instead of
 * writing every changed product a second time, its indexes with it.
 */
describe("a re-import's changes of stock", async () => {
  const server = await build();
  const db = server.database.db;

  it('write each product once, and when it last moved as the movement was made', async () => {
    const user = await signIn(server);
    const header = ['name', 'price', 'stock', 'description'];
    const rows = Array.from({ length: ROWS }, (_, i) => [
      `Jar ${i}`,
      '2.00',
      String(50 + i),
      'Glass',
    ]);
    expect((await importCsv(server, user, csvText([header, ...rows]))).json()).toMatchObject({
      created: ROWS,
    });
    const products = await allProducts(server, user);
    server.clock.advance(60_000);
    await countProductWrites(server);
    const res = await importCsv(
      server,
      user,
      csvText([
        ['id', ...header],
        ...products.map((p) => [p.id, p.name, '2.00', String(p.stock + 1), 'Glass']),
      ]),
    );
    expect(res.json()).toMatchObject({ created: 0, updated: ROWS });
    const writes = await db
      .selectFrom(sql<{ product_id: string }>`product_writes`.as('w'))
      .select(['w.product_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('w.product_id')
      .execute();
    expect(writes.length).toBe(ROWS);
    expect(writes.filter((w) => Number(w.n) !== 1)).toEqual([]);
    const moved = await db
      .selectFrom('products as p')
      .innerJoin('stock_movements as m', 'm.product_id', 'p.id')
      .select(['p.last_moved_at', 'm.created_at', 'p.created_at as made'])
      .where(
        'p.id',
        'in',
        products.map((p) => p.id),
      )
      .where('m.old_stock', '>', 0)
      .execute();
    expect(moved.length).toBe(ROWS);
    for (const row of moved) {
      expect(Number(row.created_at)).toBeGreaterThan(Number(row.made));
      expect(Number(row.last_moved_at)).toBe(Number(row.created_at));
    }
  });
});

import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  PRODUCT_SORTS,
  STOCK_FILTERS,
  type ProductSort,
  type StockFilter,
} from '../../../src/shared/constants.js';
import { V } from '../../../src/shared/messages.js';
import { insertUser } from '../../../src/server/features/accounts/users.js';
import { SORT_ORDERS } from '../../../src/server/features/products/cursor.js';
import {
  SEARCH_DESCRIPTION_MAX,
  SEARCH_NAME_MAX,
} from '../../../src/server/features/products/keys.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { deleteProducts } from '../../../src/server/features/products/delete-writes.js';
import { insertProduct, updateProduct } from '../../../src/server/features/products/writes.js';
import { writeCatalogue, type CatalogueWrite } from '../../../src/server/features/writes/index.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import type { ListRow } from '../../../src/server/features/products/rows.js';
import { build } from '../support/build.js';

/** Substring search through the index: the same answers as a plain scan, on both engines. */
describe('product search', async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const repository = new ProductRepository(db, dialect);
  const queries = new ProductQueries(db, dialect);
  // The same data layer checking 3 rows per search statement, and reading the owner's rows in
  // order once the trigram index finds more than 5 candidates: many statements for every search.
  const narrow = new ProductRepository(db, dialect, { windowRows: 3, candidatesMax: 5 });
  let users = 0;
  const newOwner = () =>
    insertUser(
      db,
      { name: 'o', email: `search-${(users += 1)}@example.com`, passwordHash: 'x' },
      0,
    );

  const owner = await newOwner();
  const neighbour = await newOwner();
  const catalogue = [
    ['Émile chair', 'Oak, hand finished'],
    ['Desk LAMP', 'Brass; 100% recycled'],
    ['lamp shade', 'Linen, fits any lamp'],
    ['Zebra rug', 'Made of 5_star wool'],
    ['Mug', 'Back\\slash glaze'],
    ['Smile 😀ab', 'Emoji in the name'],
    ['Ligature', 'The ﬁnest ﬂour'],
    ['Straße sign', 'ÇA VA'],
  ];
  /** One write through the write pipeline, with no request: its result. */
  const write = async <T>(who: string, now: number, run: (w: CatalogueWrite) => Promise<T>) => {
    const target = { id: who, actorId: null };
    const done = await writeCatalogue({ db, dialect }, target, now, async (w) => ({
      answer: { status: 200, body: await run(w) },
    }));
    return done.answer.body;
  };
  const seed = (who: string, rows: string[][], offset = 0) =>
    bulkLoad(
      { db, dialect },
      who,
      rows.map(([name, description], i) => ({
        name: name!,
        description: description!,
        priceCents: ((i * 37) % 11) + 1,
        stock: i % 3,
        image: null,
        createdAt: offset + i,
      })),
    );
  await seed(owner, catalogue);
  // Filler that holds the trigrams of some queries but never their text, and a neighbour whose
  // rows match every query: the owner must see neither.
  await seed(
    owner,
    Array.from({ length: 40 }, (_, i) => [`Filler ${i}`, 'lam amp oak ish']),
    100,
  );
  await seed(neighbour, catalogue);

  const names = async (who: string, q: string, sort: ProductSort = 'name') => {
    const { rows } = await repository.list(who, { sort, limit: 100, q });
    return rows.map((row) => row.name);
  };

  it('finds text anywhere in the name or the description, ignoring case and accents', async () => {
    expect(await names(owner, 'LAMP')).toEqual(['Desk LAMP', 'lamp shade']);
    expect(await names(owner, 'emile')).toEqual(['Émile chair']);
    expect(await names(owner, 'MILE CH')).toEqual(['Émile chair']);
    expect(await names(owner, 'fits any')).toEqual(['lamp shade']);
    expect(await names(owner, 'ca va')).toEqual(['Straße sign']);
    // Ligatures match the letters they stand for, both ways.
    expect(await names(owner, 'finest flour')).toEqual(['Ligature']);
    expect(await names(owner, 'ﬁnest')).toEqual(['Ligature']);
    // Name and description are one text, the name first.
    expect(await names(owner, 'shade\nlinen')).toEqual(['lamp shade']);
    expect(await names(owner, 'nothing like this')).toEqual([]);
  });

  it('finds one- and two-character queries, which no trigram index can serve', async () => {
    // Every product but the neighbour's holds an e: 8 of the catalogue and 40 fillers.
    expect(await names(owner, 'É')).toHaveLength(48);
    expect(await names(owner, 'ß')).toEqual(['Straße sign']);
    expect(await names(owner, 'Z')).toEqual(['Mug', 'Zebra rug']);
    expect(await names(owner, 'ck')).toEqual(['Mug']);
    expect(await names(owner, 'qx')).toEqual([]);
    // An emoji is one character of two UTF-16 units: with one more letter it is still short.
    expect(await names(owner, '😀')).toEqual(['Smile 😀ab']);
    expect(await names(owner, '😀a')).toEqual(['Smile 😀ab']);
    expect(await names(owner, '😀ab')).toEqual(['Smile 😀ab']);
    expect(await names(owner, '😀b')).toEqual([]);
  });

  it('takes %, _, \\ and " literally, short or long', async () => {
    expect(await names(owner, '%')).toEqual(['Desk LAMP']);
    expect(await names(owner, '100%')).toEqual(['Desk LAMP']);
    expect(await names(owner, '_')).toEqual(['Zebra rug']);
    expect(await names(owner, '5_star')).toEqual(['Zebra rug']);
    expect(await names(owner, '5%star')).toEqual([]);
    expect(await names(owner, '\\')).toEqual(['Mug']);
    expect(await names(owner, 'k\\sl')).toEqual(['Mug']);
    expect(await names(owner, '"')).toEqual([]);
    expect(await names(owner, 'a "quoted" AND NOT lamp*')).toEqual([]);
    expect(await names(owner, 'a\u0000bc')).toEqual([]);
  });

  it("never returns another owner's products", async () => {
    const stranger = await newOwner();
    for (const q of ['lamp', 'a', 'oak', 'é']) expect(await names(stranger, q)).toEqual([]);
  });

  /** Every id a walk of pages gives, following the cursor. */
  async function walk(
    repo: ProductRepository,
    who: string,
    sort: ProductSort,
    q: string,
    limit: number,
    stock?: StockFilter,
  ) {
    const ids: string[] = [];
    let after: { key: string | number; id: string } | undefined;
    for (let pages = 0; pages < 200; pages += 1) {
      const { rows, hasMore }: { rows: ListRow[]; hasMore: boolean } = await repo.list(who, {
        sort,
        limit,
        q,
        stock,
        after,
      });
      expect(rows.length).toBeLessThanOrEqual(limit);
      ids.push(...rows.map((row) => row.id));
      const last = rows.at(-1);
      if (!hasMore || !last) break;
      after = { key: last.sort_key, id: last.id };
    }
    return ids;
  }

  // A stock filter narrows the windows and the candidates too; what the one statement of
  // listQuery finds is the reference, and the summary adds up exactly those rows.
  it.each(PRODUCT_SORTS)(
    'pages through the matches under a stock filter sorted by %s, and sums them',
    async (sort) => {
      for (const stock of STOCK_FILTERS) {
        for (const q of ['a', 'la', 'lam', 'oak', 'filler 1', 'zz', 'lamp']) {
          const query = queries.listQuery(owner, { sort, limit: 1000, q, stock });
          const reference = await query.execute();
          const ids = reference.map((row) => row.id);
          for (const limit of [1, 5]) {
            expect(await walk(repository, owner, sort, q, limit, stock), `${q}`).toEqual(ids);
            expect(await walk(narrow, owner, sort, q, limit, stock), `${q}`).toEqual(ids);
          }
          const expected = {
            count: reference.length,
            units: reference.reduce((sum, row) => sum + row.stock, 0),
            valueCents: reference.reduce(
              (sum, row) => sum + BigInt(row.stock * row.price_cents),
              0n,
            ),
            // Every point here is the catalogue's default, 10.
            toReorder: reference.filter((row) => row.stock <= 10).length,
          };
          expect(await repository.summary(owner, { q, stock }), `${q} ${stock}`).toEqual(expected);
          expect(await narrow.summary(owner, { q, stock }), `${q} ${stock}`).toEqual(expected);
        }
      }
    },
  );

  it.each(PRODUCT_SORTS)(
    'pages through the matches sorted by %s, in windows or not',
    async (sort) => {
      for (const q of ['a', 'la', 'lam', 'oak', 'filler 1', 'zz', 'lamp', 'emile', 'zebra']) {
        const whole = (await repository.list(owner, { sort, limit: 100, q })).rows.map((r) => r.id);
        for (const limit of [1, 2, 5]) {
          expect(await walk(repository, owner, sort, q, limit), `${q} by ${limit}`).toEqual(whole);
          expect(await walk(narrow, owner, sort, q, limit), `${q} by ${limit}`).toEqual(whole);
        }
      }
    },
  );

  it('keeps the index in step with inserts, edits, deletes and a deleted account', async () => {
    const who = await newOwner();
    const { id } = await write(who, 1, (w) =>
      insertProduct(w, {
        name: 'Walnut box',
        description: 'Small',
        priceCents: 1,
        stock: 1,
        image: null,
      }),
    );
    expect(await names(who, 'walnut')).toEqual(['Walnut box']);
    await write(who, 2, (w) => updateProduct(w, id, { name: 'Maple box' }));
    expect(await names(who, 'walnut')).toEqual([]);
    expect(await names(who, 'maple')).toEqual(['Maple box']);
    await write(who, 3, (w) => updateProduct(w, id, { stock: 5 }));
    expect(await names(who, 'maple')).toEqual(['Maple box']);
    await write(who, 4, (w) => deleteProducts(w, [id]));
    expect(await names(who, 'maple')).toEqual([]);

    const leaving = await newOwner();
    await seed(leaving, [['Teak tray', 'Oiled']]);
    await db.deleteFrom('users').where('id', '=', leaving).execute();
    if (dialect === 'sqlite') {
      // The index holds no entry for a row that is gone, and agrees with products row by row.
      const stale = await sql<{ n: number }>`select count(*) as n from product_search
        where product_search match '"tea" AND "eak"'`.execute(db);
      expect(stale.rows[0]!.n).toBe(0);
      await sql`insert into product_search(product_search, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    }
  });

  it('bounds the searchable text after folding, keeping ordinary text whole', async () => {
    const who = await newOwner();
    await seed(who, [
      // 5000 characters that fold to 90,000.
      ['Blessing', '\uFDFA'.repeat(5000)],
      // 5000 characters that fold to 5000: searchable to the end.
      ['Long', `${'x'.repeat(4994)}needle`],
      // Folds to 10,800 characters: the end lies past the cap.
      ['Capped', `${'\uFDFA'.repeat(600)}tail`],
    ]);
    const keys = await db
      .selectFrom('products')
      .select('search_key')
      .where('catalogue_id', '=', who)
      .execute();
    for (const { search_key } of keys) {
      expect(search_key.length).toBeLessThanOrEqual(SEARCH_NAME_MAX + 1 + SEARCH_DESCRIPTION_MAX);
    }
    expect(await names(who, 'needle')).toEqual(['Long']);
    expect(await names(who, 'x'.repeat(190) + 'needle')).toEqual(['Long']);
    expect(await names(who, 'tail')).toEqual([]);
    expect(await names(who, '\uFDFA'.repeat(11))).toEqual(['Blessing', 'Capped']);
  });

  it('refuses a query longer than 200 characters once folded', async () => {
    for (const q of ['\uFDFA'.repeat(12), 'ﬃ'.repeat(67)]) {
      await expect(repository.list(owner, { sort: 'name', limit: 5, q })).rejects.toMatchObject({
        statusCode: 400,
        errors: [{ path: 'q', message: V.searchTooLong }],
      });
    }
    expect(await names(owner, 'ﬃ'.repeat(66))).toEqual([]);
  });

  /** Turns of the event loop while `work` runs. */
  async function turnsDuring(work: () => Promise<unknown>) {
    let turns = 0;
    let running = true;
    const count = () => {
      turns += 1;
      if (running) setImmediate(count);
    };
    setImmediate(count);
    await work();
    running = false;
    return turns;
  }

  it.runIf(dialect === 'sqlite')(
    'lets other work run between the windows of a search',
    async () => {
      // 48 rows of the owner, 3 a window: 16 statements, with a turn of the event loop before each.
      const search = (sort: ProductSort, q: string) => narrow.list(owner, { sort, limit: 10, q });
      expect(await turnsDuring(() => search('newest', 'zz'))).toBeGreaterThanOrEqual(15);
      // Searches running at once take turns: still one window per turn of the loop, not one each.
      const both = () => Promise.all([search('name', 'zz'), search('price-asc', 'qq')]);
      expect(await turnsDuring(both)).toBeGreaterThanOrEqual(30);
    },
  );

  // Checking candidates and reading the page among the matches cost as many rows as they are
  // given, never a scan of the owner's catalogue, which SQLite prefers without statistics (as
  // here, and as the app runs: it never runs ANALYZE).
  it.runIf(dialect === 'sqlite').each(PRODUCT_SORTS)(
    'reads candidates by rowid, sorted by %s',
    async (sort) => {
      const after = { key: SORT_ORDERS[sort].column === 'name_key' ? 'm' : 5, id: owner };
      for (const query of [
        queries.checkQuery(owner, sort, 'lamp', after, [1, 2, 3]),
        queries.amongQuery(owner, sort, [1, 2, 3], 51),
      ]) {
        const { sql: text, parameters } = query.compile();
        const plan = await db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
        );
        const details = plan.rows.map((row) => row.detail).join('\n');
        expect(details).toContain('SEARCH products USING INTEGER PRIMARY KEY (rowid=?)');
        expect(details).not.toMatch(/products_owner|SCAN products/);
      }
    },
  );
});

import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { ProductQueries } from '../../../src/server/features/products/queries.js';
import { build, type TestServer } from '../support/build.js';
import { analyzeProducts, pagesRead, numberedCatalogue } from '../support/statement-plans.js';

/** Pages a search may read beyond what it read before the other tenant wrote: its list's 64 kB. */
const SLACK_PAGES = 12;

/**
 * On PostgreSQL a search reads the trigram index's list of entries waiting to be merged whole,
 * whoever wrote them, or, when the planner finds that list long, all of its catalogue's rows.
 * Another tenant's import and stock changes, written since the last vacuum, must not make a
 * catalogue's search read more than that list's bound.
 */
describe.runIf(!!process.env.TEST_DATABASE_URL)(
  'a search beside another tenant (PostgreSQL)',
  () => {
    let server: TestServer;
    let queries: ProductQueries;
    let owner = '';
    let other = '';
    const search = () => queries.listQuery(owner, { sort: 'newest', limit: 50, q: 'product 2345' });
    let alone = { pages: 0, plan: '' };

    // Built and loaded in a hook, which a skipped suite (SQLite) does not run.
    beforeAll(async () => {
      server = await build();
      const { db, dialect } = server.database;
      queries = new ProductQueries(db, dialect);
      owner = await numberedCatalogue(server.database, 'own@example.com', 3000);
      other = await numberedCatalogue(server.database, 'next@example.com', 3000);
      // Vacuumed, as autovacuum does now and then: nothing waits to be merged.
      await analyzeProducts(db, dialect);
      alone = await pagesRead(db, search().compile());
    });

    it('reads no more of the index after the other tenant imports and changes stock', async () => {
      const { db } = server.database;
      expect(alone.plan).toContain('products_search_trgm');
      // Products of the same names, as shops selling the same goods have.
      await bulkLoad(
        server.database,
        other,
        Array.from({ length: 3000 }, (_, i) => ({
          name: `Product ${i} large`,
          description: 'Plain',
          priceCents: 1,
          stock: 0,
          image: null,
          createdAt: 10_000 + i,
        })),
      );
      await sql`update products set stock = stock + 1 where catalogue_id = ${other}`.execute(db);
      const beside = await pagesRead(db, search().compile());
      expect(beside.pages, `${alone.pages} pages alone\n${beside.plan}`).toBeLessThanOrEqual(
        alone.pages + SLACK_PAGES,
      );
      expect(await search().execute()).toHaveLength(1);
    });
  },
);

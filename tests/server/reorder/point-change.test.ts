import { afterAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { api, member } from '../catalogues/support.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { longestTurn } from '../support/latency.js';
import { plainProducts } from '../support/products.js';
import { planText, statementRecorder } from '../support/statement-plans.js';

const PRODUCTS = 20_000;
/** What any write may hold the event loop for, in CPU time (as an import's own turns). */
const LONGEST_TURN_MS = 100;
/** Products whose stock lies between the two points of the second change. */
const BETWEEN = 2_500;

/**
 * A change of a catalogue's reorder point judges again, in one transaction, the products that
 * follow it and whose stock lies between the two points: raised above the stock of all of them,
 * all cross, and enter the `reorder` part of every location that holds them. Done in one turn of
 * the event loop, that held it for 1.35 s at 100,000 products (347 ms at 20,000); it goes a page of
 * products at a time now, a turn each, and still commits every mark and total with the point or
 * none.
 */
describe("a change of a large catalogue's reorder point", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await member(server, 'Pat');
  await bulkLoad({ db, dialect }, owner.id, plainProducts(PRODUCTS, 50));

  const marked = async () => {
    const row = await db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('catalogue_id', '=', owner.id)
      .where('reorder_crossed_at', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  /** The catalogue's kept totals, and its default location's, which holds all of its stock. */
  async function expectTotalsKept() {
    const recounted = await recountTotals(db, owner.id);
    expect(await keptTotals(db, owner.id)).toEqual(recounted);
    expect(await keptTotals(db, owner.id, owner.id)).toEqual(recounted);
  }

  /** The longest turn of the change through the API. */
  const setPoint = async (reorderPoint: number) => {
    let status = 0;
    const turn = await longestTurn(async () => {
      const res = await api(server, owner, 'PATCH', `/api/catalogues/${owner.id}`, {
        reorderPoint,
      });
      status = res.statusCode;
    });
    expect(status).toBe(200);
    return turn;
  };

  const recorder = statementRecorder();
  afterAll(() => recorder.restore());

  it(`marks all ${PRODUCTS.toLocaleString('en')} products, then none, in short turns`, async () => {
    const { result: raised, statements } = await recorder.during(() => setPoint(100));
    expect(await marked()).toBe(PRODUCTS);
    // SQLite runs a page on the event loop, 1,000 products a turn; PostgreSQL runs it in its own
    // process, 10,000 a page, and moves each location's totals once a page, not ten times.
    const pages = statements.filter((query) =>
      /^update "products" set "reorder_crossed_at"/.test(query.sql),
    );
    expect(pages).toHaveLength(PRODUCTS / (dialect === 'postgres' ? 10_000 : 1_000));
    await expectTotalsKept();
    const lowered = await setPoint(10);
    expect(await marked()).toBe(0);
    await expectTotalsKept();
    console.log(
      `longest turn of CPU: raised ${raised.toFixed(0)} ms, lowered ${lowered.toFixed(0)} ms`,
    );
    expect(raised).toBeLessThan(LONGEST_TURN_MS);
    expect(lowered).toBeLessThan(LONGEST_TURN_MS);
  }, 120_000);

  // A product whose stock lies outside the two points neither crosses nor moves a total: the
  // change reads those between them from the index by stock, a page at a time, so its cost follows
  // them, not the catalogue (walked a range of ids at a time, it ran three statements per 1,000
  // products). A statement of a page that read a whole stock value (as the index of the marked
  // products would) would read the same products again for each page of that value.
  it(`judges only the ${BETWEEN.toLocaleString('en')} products between the two points`, async () => {
    for (let stock = 15; stock < 20; stock += 1) {
      await bulkLoad({ db, dialect }, owner.id, plainProducts(BETWEEN / 5, stock));
    }
    const raised = await recorder.during(() => setPoint(20));
    expect(await marked()).toBe(BETWEEN);
    await expectTotalsKept();
    const lowered = await recorder.during(() => setPoint(10));
    expect(await marked()).toBe(0);
    await expectTotalsKept();
    for (const { statements } of [raised, lowered]) {
      const ofProducts = statements.filter((query) => /\bproducts\b/.test(query.sql));
      // A page read, its totals moved, its marks set or cleared.
      expect(ofProducts.length).toBeLessThanOrEqual(3 * Math.ceil(BETWEEN / 1_000));
      // PostgreSQL plans by its statistics, which its tests gather only where they ask.
      if (dialect !== 'sqlite') continue;
      // Each statement of a page reads the page's range of the index by stock, or its products
      // by id; only the page's own read, which stops at its size, starts from the lower point.
      const readsMore: string[] = [];
      for (const query of ofProducts) {
        const steps = (await planText(db, dialect, query)).split('\n');
        const reads = steps.filter((step) => /^(SCAN|SEARCH) (products|p) /.test(step));
        const ownRead = /^select "id", "stock" from "products"/.test(query.sql);
        readsMore.push(...reads.filter((step) => !/\(stock,id\)<|\bid=\?/.test(step) && !ownRead));
      }
      expect(readsMore).toEqual([]);
      // A page's totals are found by location: read by the catalogue, each page read every
      // location's four rows (40,000 beside 10,000 bins) to find the few it moves.
      const totals = statements.filter((query) => /\blocation_totals\b/.test(query.sql));
      expect(totals.length).toBeGreaterThan(0);
      for (const query of totals) {
        const plan = await planText(db, dialect, query);
        const reads = plan
          .split('\n')
          .filter((step) => /^(SCAN|SEARCH) location_totals\b/.test(step));
        expect(reads, plan).toEqual([expect.stringMatching(/location_id=\? AND part=\?\)$/)]);
      }
    }
  });
});

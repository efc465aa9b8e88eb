import { describe, expect, it } from 'vitest';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { api, member } from '../catalogues/support.js';
import { build } from '../support/build.js';
import { keptTotals, recountTotals } from '../support/catalogue-totals.js';
import { longestTurn } from '../support/latency.js';
import { plainProducts } from '../support/products.js';

const PRODUCTS = 10_000;

/**
 * A change of a catalogue's reorder point judges every product of the catalogue again, in one
 * transaction: all of them cross when it is raised above their stock. Marked in one turn of the
 * event loop, 100,000 products held it for 1.3 s; they are marked a range at a time now, with a
 * turn between, and every mark still commits with the point or none. What remains in one turn is
 * the statement that changes the point, whose triggers move the kept totals (0.6 s at 100,000):
 * the yardstick here, measured alone in the same process and rolled back.
 */
describe("a change of a large catalogue's reorder point", async () => {
  const server = await build();
  const { db } = server.database;
  const owner = await member(server, 'Pat');
  await bulkLoad({ db, dialect: server.database.dialect }, owner.id, plainProducts(PRODUCTS, 50));

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

  /** The longest turn of the point's own statement, rolled back. */
  const statementAlone = (reorderPoint: number) =>
    longestTurn(() =>
      db
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('catalogues')
            .set({ reorder_point: reorderPoint })
            .where('id', '=', owner.id)
            .execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined),
    );

  /** The longest turn of the change through the API, beside its statement's alone. */
  const setPoint = async (reorderPoint: number) => {
    const alone = await statementAlone(reorderPoint);
    let status = 0;
    const turn = await longestTurn(async () => {
      const res = await api(server, owner, 'PATCH', `/api/catalogues/${owner.id}`, {
        reorderPoint,
      });
      status = res.statusCode;
    });
    expect(status).toBe(200);
    return { turn, alone };
  };

  it(`marks all ${PRODUCTS.toLocaleString('en')} products, then none, in short turns`, async () => {
    const raised = await setPoint(100);
    expect(await marked()).toBe(PRODUCTS);
    await expectTotalsKept();
    const lowered = await setPoint(10);
    expect(await marked()).toBe(0);
    await expectTotalsKept();
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(
      `longest turn of CPU: raised ${ms(raised.turn)} (its statement alone ${ms(raised.alone)}), lowered ${ms(lowered.turn)} (${ms(lowered.alone)})`,
    );
    // Marking the products adds no long turn of its own (it was one as long as the statement).
    for (const { turn, alone } of [raised, lowered]) expect(turn).toBeLessThan(1.5 * alone + 10);
  }, 120_000);
});

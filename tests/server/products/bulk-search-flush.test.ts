import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX } from '../../../src/shared/constants.js';
import {
  bulkLoad,
  loadProducts,
  stageProducts,
  type StagedProducts,
} from '../../../src/server/features/products/import-writes.js';
import type { ImportedUpdate } from '../../../src/server/features/products/rows.js';
import { dropImport, stageImport } from '../../../src/server/features/products/staged-imports.js';
import { writeCatalogue } from '../../../src/server/features/writes/index.js';
import { member } from '../catalogues/support.js';
import { build } from '../support/build.js';
import { longestBlock } from '../support/latency.js';

/**
 * Products written with the longest description: enough flushes of the search index for FTS5 to
 * merge the smallest level's 16 segments, and 256 of them a level up, inside a statement.
 */
const ROWS = 300;
/**
 * The longest run of the main thread a bulk write may hold, in CPU time: before, the statement
 * after a batch (the next one's rewrite, the movements) flushed it and merged the segments that
 * piled up: 57-72 ms a load, about 100 a re-import.
 */
const TURN_MS = 30;

/** A description of random text, new to the search index all along. */
const longText = () => randomBytes(DESCRIPTION_MAX).toString('base64url').slice(0, DESCRIPTION_MAX);

/** ROWS new products, each of the longest description. */
const newProducts = () =>
  Array.from({ length: ROWS }, (_, i) => ({
    name: `Lamp ${i}`,
    description: longText(),
    priceCents: 100,
    stock: 3,
    image: null,
    createdAt: i,
  }));

/**
 * On SQLite, a bulk write's batches change the search keys of many products in one transaction:
 * FTS5 writes each batch's entries at the next savepoint and, with merging left to bounded steps
 * (migration 047), merges whatever piled up when the smallest level fills. Every bulk writer
 * flushes and merges a step in turns of their own, so no turn holds the loop for the index.
 */
describe('bulk writers and the search index', async () => {
  const server = await build();
  const { db, dialect } = server.database;

  /**
   * Loads new products and writes updates over existing ones in one write to the catalogue, as an
   * import does: the longest the main thread ran without a turn meanwhile, in CPU time.
   */
  async function timed(catalogueId: string, created: StagedProducts, updates: ImportedUpdate[]) {
    const stop = longestBlock();
    await writeCatalogue(
      server.database,
      { id: catalogueId, actorId: null },
      Date.now(),
      async (w) => ({
        answer: { status: 200, body: await loadProducts(w, created, 'import', updates) },
      }),
    );
    return stop();
  }

  it.skipIf(dialect !== 'sqlite')(
    `re-imports ${ROWS} long descriptions in turns under ${TURN_MS} ms`,
    async () => {
      const own = await member(server, 'Ada');
      await bulkLoad(server.database, own.id, newProducts());
      const rows = await db
        .selectFrom('products')
        .select(['id', 'name'])
        .where('catalogue_id', '=', own.id)
        .execute();
      const updates = rows.map(({ id, name }) => ({
        id,
        product: { name, description: longText(), priceCents: 100, stock: 4, tags: [] },
        at: 1,
      }));
      const longest = await timed(own.id, [], updates);
      console.log(`re-import of ${ROWS} long descriptions: longest block ${longest.toFixed(1)} ms`);
      expect(longest).toBeLessThan(TURN_MS);
    },
    60_000,
  );

  it.skipIf(dialect !== 'sqlite')(
    `loads ${ROWS} new products of long descriptions in turns under ${TURN_MS} ms`,
    async () => {
      const own = await member(server, 'Bo');
      const staged = await stageProducts({ id: own.id, actorId: null }, newProducts());
      const longest = await timed(own.id, staged, []);
      console.log(`load of ${ROWS} long descriptions: longest block ${longest.toFixed(1)} ms`);
      expect(longest).toBeLessThan(TURN_MS);
    },
    60_000,
  );

  it.skipIf(dialect !== 'sqlite')(
    `drops a failed import of ${ROWS} long descriptions in turns under ${TURN_MS} ms`,
    async () => {
      const own = await member(server, 'Cy');
      const target = { id: own.id, actorId: null };
      const clock = { now: () => Date.now(), isGone: () => false };
      const staged = await stageImport(
        db,
        target,
        await stageProducts(target, newProducts()),
        clock,
      );
      const stop = longestBlock();
      await dropImport(db, staged);
      const longest = stop();
      console.log(`drop of ${ROWS} long descriptions: longest block ${longest.toFixed(1)} ms`);
      expect(longest).toBeLessThan(TURN_MS);
      const left = await db
        .selectFrom('products')
        .select('id')
        .where('catalogue_id', '=', own.id)
        .execute();
      expect(left).toEqual([]);
    },
    60_000,
  );
});

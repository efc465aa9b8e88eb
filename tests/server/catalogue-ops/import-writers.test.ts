import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../../src/shared/constants.js';
import { build } from '../support/build.js';
import { signIn } from '../support/accounts.js';
import { contention, percentile } from '../support/latency.js';
import { createProduct, getProduct, largestImportCsv } from '../support/products.js';
import { csvForm } from '../support/server-process.js';

/** How long another user's stock change may wait at the 99th percentile while an import runs. */
const P99_MS = 200;
/** How often the other user changes a stock. */
const EVERY_MS = 50;

/**
 * Another user's writes beside the largest import, over real HTTP: a stock change, one after
 * another while the import runs, each answered without waiting for the import's rows.
 *
 * On SQLite the import still writes in one transaction, which holds the only writer for its whole
 * write (seconds for 50,000 rows, most of it the trigram search index), so the other user's
 * changes wait for its commit: p99 63 s on a loaded machine. It fails today, so it runs only when
 * asked for (TEST_IMPORT_WRITERS=1) rather than costing every run a 50,000-row import to restate
 * a known gap; once the import commits in short transactions it passes and joins every run.
 * (On PostgreSQL the same changes waited 58 ms at p50 but up to 4 s around the import's commit on
 * that machine, not yet explained: not asserted there.)
 */
describe.runIf(!process.env.TEST_DATABASE_URL && process.env.TEST_IMPORT_WRITERS === '1')(
  "another user's stock changes while a 50,000-row import writes on SQLite",
  async () => {
    const server = await build();
    const importer = await signIn(server);
    const bystander = await signIn(server);
    const product = await createProduct(server, bystander, { name: 'Bystander lamp', stock: '5' });
    const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const form = await csvForm(largestImportCsv());

    /**
     * A stock change every EVERY_MS until `isDone()`, each sent on time whether or not the ones
     * before were answered: a change held up for seconds holds up every change sent meanwhile, and
     * the percentiles see it (one after another, the whole wait would be a single sample).
     */
    async function changeStock(isDone: () => boolean, waits: number[]) {
      const sent: Promise<void>[] = [];
      while (!isDone()) {
        const started = performance.now();
        sent.push(
          fetch(`${base}/api/products/${product.id}/stock`, {
            method: 'POST',
            headers: { ...bystander.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ delta: 1 }),
          }).then(async (res) => {
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`a stock change answered ${res.status}`);
            waits.push(performance.now() - started);
          }),
        );
        await sleep(EVERY_MS);
      }
      await Promise.all(sent);
    }

    it(`answers within ${P99_MS} ms (p99) meanwhile`, async () => {
      let done = false;
      const waits: number[] = [];
      const changes = changeStock(() => done, waits);
      const res = await fetch(`${base}/api/products/import`, {
        method: 'POST',
        headers: { ...importer.headers, ...form.headers },
        body: form.body,
      }).finally(() => (done = true));
      await changes;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { created: number }).created).toBe(IMPORT_MAX_ROWS);
      // Every change was made, the import's rows beside them.
      const after = (await getProduct(server, bystander, product.id)).json().product.stock;
      expect(after).toBe(5 + waits.length);
      const bound = P99_MS * contention();
      console.log(
        `stock changes during the import: ${waits.length}, p50 ${percentile(waits, 50).toFixed(0)} ms, p99 ${percentile(waits, 99).toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms; bound ${bound.toFixed(0)} ms`,
      );
      expect(waits.length).toBeGreaterThan(20);
      expect(percentile(waits, 99)).toBeLessThan(bound);
    }, 180_000);
  },
);

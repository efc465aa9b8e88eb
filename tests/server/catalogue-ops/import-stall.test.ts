import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../../src/shared/constants.js';
import { T } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { contention, longestBlock, percentile, timeRequests } from '../support/latency.js';
import { createProduct, largestImportCsv, productCount } from '../support/products.js';
import { csvForm } from '../support/server-process.js';

/** What another user's request may take at the 99th percentile while an import runs. */
const P99_MS = 100;
/**
 * The longest turn of the event loop allowed meanwhile, in CPU time: what any import may hold it
 * for. The longest is 56-68 ms on SQLite, 38 on PostgreSQL; a publish that walked its 50,000 rows
 * in its one turn took 85-97 ms, and 127 in CI when it copied each row.
 */
const LONGEST_TURN_MS = 100;

/**
 * The server is one event loop on one SQLite file. However large an import, everybody else must
 * keep being answered while it runs, and it still writes every row or none.
 */
describe('a 50,000-row import beside other users', async () => {
  const server = await build();
  const importer = await signIn(server);
  const bystander = await signIn(server);
  await createProduct(server, bystander, { name: 'Bystander lamp' });
  const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const form = await csvForm(largestImportCsv());

  const importAs = (user: SignedIn) =>
    fetch(`${base}/api/products/import`, {
      method: 'POST',
      headers: { ...user.headers, ...form.headers },
      body: form.body,
    });

  const get = (path: string, isDone: () => boolean, timings: number[]) =>
    timeRequests(base + path, bystander.headers, isDone, timings);

  it(`answers other users' lists and health checks within ${P99_MS} ms (p99) meanwhile`, async () => {
    const before = await productCount(server);
    let done = false;
    const list: number[] = [];
    const health: number[] = [];
    const others = Promise.all([
      get('/api/products?limit=5', () => done, list),
      get('/api/health', () => done, health),
    ]);
    const stopBlocks = longestBlock();
    const started = performance.now();
    const res = await importAs(importer).finally(() => (done = true));
    const took = performance.now() - started;
    const block = stopBlocks();
    await others;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: T.imported(IMPORT_MAX_ROWS),
      created: IMPORT_MAX_ROWS,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    expect(await productCount(server)).toBe(before + IMPORT_MAX_ROWS);
    const bound = P99_MS * contention();
    console.log(
      `import ${took.toFixed(0)} ms; longest block ${block.toFixed(0)} ms of CPU; bound ${bound.toFixed(0)} ms; list p99 ${percentile(list, 99).toFixed(1)} ms, max ${Math.max(...list).toFixed(1)} ms (${list.length}); health p99 ${percentile(health, 99).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms (${health.length})`,
    );
    expect(list.length).toBeGreaterThan(20);
    expect(percentile(list, 99)).toBeLessThan(bound);
    expect(percentile(health, 99)).toBeLessThan(bound);
    // The event loop itself: no turn ran long. An import written in one turn blocks for seconds;
    // a batch's turn stays well under this, though its CPU time swells on a loaded machine (shared
    // caches, garbage collection), which the latencies above already allow for.
    expect(block).toBeLessThan(LONGEST_TURN_MS);
    // Room to finish, not a bound: the import's pace is measured by `npm run bench:scale`. On
    // PostgreSQL it takes 70 to 100 s alone, the locations' kept totals included.
  }, 240_000);
});

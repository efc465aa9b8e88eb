import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_BYTES } from '../../../src/shared/constants.js';
import { csvForm, startServerProcess } from '../support/server-process.js';

const PARALLEL = 15;
/** What 15 hostile imports at once may add to the server's memory at their peak. */
const PEAK_GROWTH_MIB = 150;
/** How close to idle the server must come back once they are answered. */
const SETTLED_MIB = 40;

/**
 * Measured from outside, on the real server process: a CSV import reads a file of up to 10 MB as
 * it arrives, and however hostile the file, one request must not cost more than a bounded share of
 * memory, nor keep it.
 */
describe('memory of hostile imports, measured on the server process', async () => {
  const server = await startServerProcess({ RATE_LIMIT_GENERAL: '100000' });
  const users = await server.users(PARALLEL);
  const hostile = [
    // One record of ten million empty cells.
    'name,price,stock,description\n' + ','.repeat(IMPORT_MAX_BYTES - 1024),
    // A first line of 10 MB without a line break.
    'name,price,stock,description' + 'x'.repeat(IMPORT_MAX_BYTES - 1024),
  ];
  const forms = await Promise.all(hostile.map((csv) => csvForm(csv)));
  const post = (i: number) =>
    fetch(`${server.base}/api/products/import?dryRun=true`, {
      method: 'POST',
      headers: { ...users[i]!, ...forms[i % forms.length]!.headers },
      body: forms[i % forms.length]!.body,
    });

  it(`keeps ${PARALLEL} parallel imports of 10 MB records within bounds, and gives it back`, async () => {
    // Warm: the import's code loaded and run once.
    expect((await post(0)).status).toBe(400);
    await sleep(500);
    const idle = (await server.memory()).rss;
    let highest = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        highest = Math.max(highest, (await server.memory()).rss);
        await sleep(10);
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        const res = await post(i);
        return { status: res.status, body: (await res.json()) as { message: string } };
      }),
    );
    sampling = false;
    await sampler;
    for (const answer of answers) {
      // Refused at the line of the record, or (past the process's bound on imports) told to retry.
      expect([400, 503], answer.body.message).toContain(answer.status);
    }
    expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThan(0);
    const { peak } = await server.memory();
    expect(Math.max(highest, peak) - idle).toBeLessThan(PEAK_GROWTH_MIB);
    await expect
      .poll(async () => (await server.memory()).rss - idle, { timeout: 10_000, interval: 200 })
      .toBeLessThan(SETTLED_MIB);
    console.log(
      `hostile imports: idle ${idle.toFixed(0)} MiB, peak ${Math.max(highest, peak).toFixed(0)} MiB, after ${(await server.memory()).rss.toFixed(0)} MiB`,
    );
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { M, T } from '../../../src/shared/messages.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { contention, percentile, timeRequests } from '../support/latency.js';
import { createProduct } from '../support/products.js';

/** What another user's list may take at the 99th percentile meanwhile. */
const P99_MS = 100;
/** Labels a request: the most one may ask for, each with a QR code (the costliest label). */
const LABELS = 1_000;
/** Ten requests at once, and two more than the server takes in at its default bounds. */
const REQUESTS = 12;
/** What a server takes in at once by default: two running, eight waiting their turn. */
const TAKEN_IN = 10;
/** What one user may have in progress by default, running or waiting. */
const PER_USER = 4;

const isPdf = (bytes: Buffer) =>
  bytes.subarray(0, 5).toString() === '%PDF-' && bytes.subarray(-6).toString().includes('%%EOF');

/**
 * Labels, exports and reports cost seconds of CPU each: a server runs a few at once and lets a
 * few more wait their turn, so however many arrive, everybody else keeps being answered.
 */
describe('ten label requests of 1,000 at once, beside another user', async () => {
  const server = await build();
  const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const bystander = await signIn(server);
  const lamp = await createProduct(server, bystander, { name: 'Bystander lamp' });
  const labellers: { user: SignedIn; ids: string[] }[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const user = await signIn(server);
    // No barcode: each label carries a QR code of the product's page.
    const product = await createProduct(server, user, { name: `Shelf unit ${i}` });
    labellers.push({ user, ids: Array.from({ length: LABELS }, () => product.id) });
  }
  const printLabels = (user: SignedIn, ids: string[], signal?: AbortSignal) =>
    fetch(`${base}/api/products/labels.pdf`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
      signal,
    });

  it(`answers another user's list within ${P99_MS} ms (p99); beyond the bound, 503`, async () => {
    const aborts = labellers.map(() => new AbortController());
    const finished: Buffer[] = [];
    const refused: { status: number; retryAfter: number; body: unknown }[] = [];
    let done = false;
    const requests = labellers.map(async ({ user, ids }, i) => {
      try {
        const res = await printLabels(user, ids, aborts[i]!.signal);
        if (res.status !== 200) {
          const retryAfter = Number(res.headers.get('retry-after'));
          return void refused.push({ status: res.status, retryAfter, body: await res.json() });
        }
        finished.push(Buffer.from(await res.arrayBuffer()));
        // Measured while the first two run side by side.
        if (finished.length === 2) done = true;
      } catch (error) {
        if (!aborts[i]!.signal.aborted) throw error;
      }
    });
    const list: number[] = [];
    await timeRequests(`${base}/api/products?limit=5`, bystander.headers, () => done, list);
    for (const abort of aborts) abort.abort();
    await Promise.all(requests);

    const bound = P99_MS * contention();
    console.log(
      `list p99 ${percentile(list, 99).toFixed(1)} ms, max ${Math.max(...list).toFixed(1)} ms (${list.length}); bound ${bound.toFixed(0)} ms`,
    );
    expect(finished.every(isPdf)).toBe(true);
    expect(refused.map((res) => res.status)).toEqual(Array(REQUESTS - TAKEN_IN).fill(503));
    for (const res of refused) {
      expect(res.retryAfter).toBeGreaterThan(0);
      expect(res.body).toEqual({ message: M.costlyWorkBusy });
    }
    expect(list.length).toBeGreaterThan(20);
    expect(percentile(list, 99)).toBeLessThan(bound);

    // The requests given up, running or waiting, gave their places back.
    const after = await printLabels(bystander, [lamp.id]);
    expect(after.status).toBe(200);
    expect(isPdf(Buffer.from(await after.arrayBuffer()))).toBe(true);
  }, 120_000);

  it(`lets one user have ${PER_USER} in progress; one more is refused with 429`, async () => {
    const { user, ids } = labellers[0]!;
    // Running while the others arrive: a few hundred labels take a second or so.
    const running = await printLabels(user, ids.slice(0, 300));
    expect(running.status).toBe(200);
    const reading = running.arrayBuffer();
    const more = await Promise.all(
      Array.from({ length: PER_USER }, () => printLabels(user, ids.slice(0, 1))),
    );
    expect(more.map((res) => res.status).toSorted()).toEqual([
      ...Array(PER_USER - 1).fill(200),
      429,
    ]);
    const refusal = more.find((res) => res.status === 429)!;
    expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refusal.json()).toEqual({ message: T.costlyWorkPerUser(PER_USER) });
    await Promise.all([
      reading,
      ...more.filter((res) => res.status === 200).map((res) => res.arrayBuffer()),
    ]);
  }, 60_000);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DELIVERY_BOUNDS } from '../../../src/server/features/webhooks/deliveries.js';
import { anotherInstance, build } from '../support/build.js';
import { createIn, member, newCatalogue } from '../catalogues/support.js';
import { addWebhook, receiver } from './support.js';

const ALLOW = { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' };
/** Endpoints a catalogue may have: every one of them never answers. */
const SILENT_ENDPOINTS = 20;

/** A receiver that takes every request and never answers; it counts those it holds open. */
async function silentReceiver() {
  let open = 0;
  const stats = { received: 0, mostOpen: 0 };
  const server = http.createServer((request) => {
    stats.received += 1;
    open += 1;
    stats.mostOpen = Math.max(stats.mostOpen, open);
    request.socket.once('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { stats, url: (i: number) => `http://127.0.0.1:${port}/silent/${i}` };
}

describe.each([1, 2])('webhook delivery on %i instance(s)', async (instances) => {
  const server = await build({ env: ALLOW });
  const other = instances === 2 ? { ...server, app: await anotherInstance(server) } : server;
  const flooder = await member(server, 'Flo Flooder');
  const bystander = await member(server, 'Bea Bystander');
  const flood = await newCatalogue(server, flooder, 'Flood');
  const quiet = await newCatalogue(server, bystander, 'Quiet');
  const silent = await silentReceiver();
  for (let i = 0; i < SILENT_ENDPOINTS; i += 1) {
    await addWebhook(server, flooder, flood.id, silent.url(i));
  }
  const hook = await receiver();
  await addWebhook(server, bystander, quiet.id, hook.url);
  // The background work of every instance, once the accounts' mails have been read.
  for (const instance of new Set([server.app, other.app])) instance.runner.start();

  it("is not held up by another catalogue's endpoints that never answer", async () => {
    // Three events for each of the 20 silent endpoints: 60 attempts that each wait out the limit.
    for (let i = 0; i < 3; i += 1) {
      expect((await createIn(server, flooder, flood.id, { name: `Flood ${i}` })).statusCode).toBe(
        201,
      );
    }
    await expect.poll(() => silent.stats.received, { timeout: 5_000 }).toBeGreaterThan(0);

    const started = performance.now();
    expect((await createIn(other, bystander, quiet.id, { name: 'Quiet' })).statusCode).toBe(201);
    await expect.poll(() => hook.received.length, { timeout: 10_000, interval: 50 }).toBe(1);
    expect(performance.now() - started).toBeLessThan(5_000);

    // The flooding catalogue holds a few attempts at once, not every slot of every instance.
    expect(silent.stats.mostOpen).toBeGreaterThan(1);
    expect(silent.stats.mostOpen).toBeLessThanOrEqual(DELIVERY_BOUNDS.perCatalogue * instances);
  });
});

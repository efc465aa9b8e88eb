import { describe, expect, it } from 'vitest';
import { expandFanout, FANOUT_LEASE_MS } from '../../../src/server/features/webhooks/fanouts.js';
import { api, member } from '../catalogues/support.js';
import { anotherInstance, build } from '../support/build.js';
import { longestTurn } from '../support/latency.js';
import { csvText, importCsv } from '../support/products.js';
import { addWebhook, receiver, webhooksUrl } from './support.js';

const ALLOW = { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' };
/** The most endpoints a catalogue may have. */
const ENDPOINTS = 20;
/** What any write may hold the event loop for, in CPU time (as an import's own turns). */
const LONGEST_TURN_MS = 100;

const csvOf = (rows: number, stock: number) =>
  csvText([
    ['name', 'price', 'stock', 'description'],
    ...Array.from({ length: rows }, (_, i) => [`Lamp ${i}`, '1.00', String(stock), 'A lamp']),
  ]);

/**
 * A write can take thousands of products to their reorder point at once (an import of products
 * not yet counted, a raised catalogue point), and each of up to 20 endpoints gets an event per
 * product: 50,000 events make a million deliveries. The write commits them as a few rows of
 * events, not one delivery each (which held SQLite's write lock and the event loop for seconds);
 * the runner writes the deliveries in short steps, each event to each endpoint once.
 */
describe('reorder webhooks of a write that crosses many points', async () => {
  const server = await build({ env: ALLOW });
  const { db, dialect } = server.database;
  const { webhookDeliverer } = server.app;
  // The same app on the same PostgreSQL database, as another instance would be: its runner claims
  // as ours. (Two apps in one process on one SQLite file would block each other's thread: one
  // waits for the file's write lock that the other, on the same thread, cannot release.)
  const second = dialect === 'postgres' ? await anotherInstance(server) : undefined;

  async function listened(name: string, urls: string[]) {
    const owner = await member(server, name);
    const hooks = [];
    for (const url of urls) {
      hooks.push((await addWebhook(server, owner, owner.id, url, ['reorder.reached'])).webhook);
    }
    return { owner, hooks };
  }

  /** Each endpoint's deliveries, as the names of the products their events are about. */
  async function deliveredNames(catalogueId: string) {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'payload'])
      .where('catalogue_id', '=', catalogueId)
      .execute();
    const names = new Map<string, string[]>();
    for (const row of rows) {
      const body = JSON.parse(row.payload) as { type: string; data: { product: { name: string } } };
      expect(body.type).toBe('reorder.reached');
      const named = names.get(row.webhook_id) ?? [];
      named.push(body.data.product.name);
      names.set(row.webhook_id, named);
    }
    return names;
  }

  /** Claims a catalogue's row of events as the runner does (ours has one at a time). */
  async function claim(catalogueId: string) {
    const row = await db
      .updateTable('webhook_fanouts')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        locked_until: server.clock.now() + FANOUT_LEASE_MS,
      }))
      .where('catalogue_id', '=', catalogueId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const settled = async () => {};
    return { row, finish: settled, retryAt: settled, release: settled };
  }

  /** Drops a catalogue's deliveries: none is sent to the example endpoints by a later drain. */
  const forget = (catalogueId: string) =>
    db.deleteFrom('webhook_deliveries').where('catalogue_id', '=', catalogueId).execute();

  const sorted = (names: string[] = []) => [...names].sort();
  const lamps = (count: number) => sorted(Array.from({ length: count }, (_, i) => `Lamp ${i}`));

  const endpoints = (count: number) =>
    Array.from({ length: count }, (_, i) => `https://hooks${i}.example.com/reorder`);

  it('an import of 2,500 products at 0 with 20 endpoints: 50,000 deliveries, no long turn', async () => {
    const { owner, hooks } = await listened('Pat', endpoints(ENDPOINTS));
    let answer: Awaited<ReturnType<typeof importCsv>> | undefined;
    const importing = await longestTurn(async () => {
      answer = await importCsv(server, owner, csvOf(2_500, 0));
    });
    expect(answer!.statusCode, answer!.body).toBe(200);
    expect(importing).toBeLessThan(LONGEST_TURN_MS);
    const writing = await longestTurn(() => webhookDeliverer.fanOutDue());
    expect(writing).toBeLessThan(LONGEST_TURN_MS);
    const names = await deliveredNames(owner.id);
    expect([...names.keys()].sort()).toEqual(hooks.map((hook) => hook.id).sort());
    for (const hook of hooks) expect(sorted(names.get(hook.id))).toEqual(lamps(2_500));
    await forget(owner.id);
  }, 120_000);

  it('a raised catalogue point that takes 1,000 products to it, likewise', async () => {
    const { owner, hooks } = await listened('Quin', endpoints(ENDPOINTS));
    expect((await importCsv(server, owner, csvOf(1_000, 50))).statusCode).toBe(200);
    expect(await deliveredNames(owner.id)).toEqual(new Map());
    let status = 0;
    const raising = await longestTurn(async () => {
      const res = await api(server, owner, 'PATCH', `/api/catalogues/${owner.id}`, {
        reorderPoint: 100,
      });
      status = res.statusCode;
    });
    expect(status).toBe(200);
    expect(raising).toBeLessThan(LONGEST_TURN_MS);
    await webhookDeliverer.fanOutDue();
    const names = await deliveredNames(owner.id);
    for (const hook of hooks) expect(sorted(names.get(hook.id))).toEqual(lamps(1_000));
    await forget(owner.id);
  }, 120_000);

  it('each event reaches each endpoint once, though a worker stalled midway', async () => {
    const { owner, hooks } = await listened('Rue', endpoints(2));
    expect((await importCsv(server, owner, csvOf(1_500, 0))).statusCode).toBe(200);
    // A worker claims the events as the runner does and writes a step; then it stalls past its
    // lease, and another worker claims them. The first one wakes: it must stop there.
    const first = await claim(owner.id);
    let second: Awaited<ReturnType<typeof claim>> | undefined;
    let steps = 0;
    await expandFanout(db, server.clock, first, new AbortController().signal, async () => {
      steps += 1;
      if (steps > 1) return;
      await db.updateTable('webhook_fanouts').set({ locked_until: 0 }).execute();
      second = await claim(owner.id);
    });
    expect(steps).toBe(1);
    await expandFanout(db, server.clock, second!, new AbortController().signal, () => {});
    expect(await db.selectFrom('webhook_fanouts').select('id').execute()).toEqual([]);
    const names = await deliveredNames(owner.id);
    for (const { id } of hooks) expect(sorted(names.get(id))).toEqual(lamps(1_500));
    await forget(owner.id);
  });

  it('an endpoint deleted before its deliveries were written gets none; the others do', async () => {
    const hook = await receiver();
    const { owner, hooks } = await listened('Sol', [`${hook.url}/gone`, `${hook.url}/kept`]);
    expect((await importCsv(server, owner, csvOf(600, 0))).statusCode).toBe(200);
    const [gone, kept] = hooks as [(typeof hooks)[0], (typeof hooks)[0]];
    const deleted = await api(server, owner, 'DELETE', `${webhooksUrl(owner.id)}/${gone.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(await webhookDeliverer.deliverDue()).toBe(600);
    const names = await deliveredNames(owner.id);
    expect([...names.keys()]).toEqual([kept.id]);
    expect(sorted(names.get(kept.id))).toEqual(lamps(600));
    const arrived = hook.received.map(
      (request) => (JSON.parse(request.body) as { data: { product: { name: string } } }).data,
    );
    expect(sorted(arrived.map((data) => data.product.name))).toEqual(lamps(600));
    const left = await db
      .selectFrom('webhook_fanouts')
      .select('id')
      .where('catalogue_id', '=', owner.id)
      .execute();
    expect(left).toEqual([]);
  }, 120_000);

  it.skipIf(dialect !== 'postgres')(
    'two instances writing out several catalogues at once: each event to each endpoint once',
    async () => {
      const listening = [];
      for (const name of ['Uma', 'Vic', 'Wyn']) {
        const catalogue = await listened(name, endpoints(2));
        expect((await importCsv(server, catalogue.owner, csvOf(1_200, 0))).statusCode).toBe(200);
        listening.push(catalogue);
      }
      const workers = [webhookDeliverer, second!.webhookDeliverer];
      await Promise.all([...workers, ...workers].map((worker) => worker.fanOutDue()));
      expect(await db.selectFrom('webhook_fanouts').select('id').execute()).toEqual([]);
      for (const { owner, hooks } of listening) {
        const names = await deliveredNames(owner.id);
        for (const { id } of hooks) expect(sorted(names.get(id))).toEqual(lamps(1_200));
        await forget(owner.id);
      }
    },
    120_000,
  );
});

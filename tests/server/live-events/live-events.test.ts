import { describe, expect, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import {
  LIVE_STREAMS_PER_USER,
  liveEventSchemas,
  type LiveEvent,
  type LiveEventKind,
} from '../../../src/shared/schemas/live-events.js';
import { build } from '../support/build.js';
import { accounts, NEW_PASSWORD, PASSWORD, signIn, userRow } from '../support/accounts.js';
import {
  adjustStock,
  bulkDelete,
  createProduct,
  csvText,
  deleteProduct,
  importCsv,
  patchProduct,
} from '../support/products.js';
import { eventStreamsOn, openEventStream } from '../../support/event-stream.js';

const HOST = '127.0.0.1';

describe('GET /api/events over real HTTP', async () => {
  const server = await build();
  const baseUrl = await server.app.listen({ port: 0, host: HOST });
  const user = await signIn(server);
  // Events name the catalogue: the personal one's id is its user's.
  const { id: userId } = (await userRow(server, user.email))!;
  const stranger = await signIn(server);
  const open = eventStreamsOn(baseUrl);
  const kind = (wanted: LiveEventKind) => (event: { kind: string }) => event.kind === wanted;
  const expectShape = (event: { kind: string; data: unknown }) =>
    liveEventSchemas[event.kind as LiveEventKind].parse(event.data);

  it('streams each kind of change within 1 s of its commit, to its owner only', async () => {
    // A client that takes compression still gets each event as it is written.
    const mine = await open(user.token, { 'accept-encoding': 'gzip, br' });
    const theirs = await open(stranger.token);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(mine.headers['content-encoding']).toBeUndefined();

    const product = await createProduct(server, user, { stock: '4' });
    const created = await mine.next(kind('product.created'));
    expect(created.data).toEqual({ catalogueId: userId, product });

    await patchProduct(server, user, product.id, { name: 'Renamed' });
    const updated = await mine.next(kind('product.updated'));
    expect(expectShape(updated)).toMatchObject({ product: { id: product.id, name: 'Renamed' } });

    await adjustStock(server, user, product.id, { delta: 3 });
    const changed = await mine.next(kind('stock.changed'));
    expect(changed.data).toMatchObject({ id: product.id, stock: 7 });
    expectShape(changed);

    // A refused change commits nothing, so it streams nothing.
    expect((await adjustStock(server, user, product.id, { delta: -100 })).statusCode).toBe(409);

    await deleteProduct(server, user, product.id);
    expect((await mine.next(kind('product.deleted'))).data).toEqual({
      catalogueId: userId,
      id: product.id,
    });

    const a = await createProduct(server, user);
    const b = await createProduct(server, user);
    await bulkDelete(server, user, { ids: [a.id, b.id] });
    const bulk = await mine.next(kind('products.deleted'));
    expect(bulk.data).toEqual({ catalogueId: userId, ids: [a.id, b.id] });

    const csv = csvText([
      ['name', 'description', 'price', 'stock'],
      ['Imported', 'From a file', '2.50', '3'],
    ]);
    expect((await importCsv(server, user, csv)).statusCode).toBe(200);
    expect((await mine.next(kind('import.done'))).data).toEqual({
      catalogueId: userId,
      created: 1,
      updated: 0,
    });

    const ids = mine.events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(mine.events.map((event) => event.kind)).toEqual([
      'product.created',
      'product.updated',
      'stock.changed',
      'product.deleted',
      'product.created',
      'product.created',
      'products.deleted',
      'import.done',
    ]);
    expect(theirs.events).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('resumes after Last-Event-ID with no gap, and sends reset for an id it cannot resume', async () => {
    const first = await open(user.token);
    const product = await createProduct(server, user, { stock: '10' });
    const seen = await first.next(kind('product.created'));
    first.close();
    await adjustStock(server, user, product.id, { delta: 1 });
    await adjustStock(server, user, product.id, { delta: 2 });

    const resumed = await open(user.token, { 'last-event-id': seen.id! });
    await resumed.next((event) => event.kind === 'stock.changed' && hasStock(event, 13));
    expect(
      resumed.events.map((event) => [event.kind, (event.data as { stock: number }).stock]),
    ).toEqual([
      ['stock.changed', 11],
      ['stock.changed', 13],
    ]);

    for (const id of ['not-a-number', '999999999']) {
      const lost = await open(user.token, { 'last-event-id': id });
      expect((await lost.next(kind('reset'))).data).toEqual({});
      lost.close();
    }
    resumed.close();
  });

  it('sends each event once, in order, to a stream resuming right after changes', async () => {
    const watcher = await open(user.token);
    const product = await createProduct(server, user, { stock: '10' });
    let last = (await watcher.next(kind('product.created'))).id!;
    watcher.close();
    // The replay reads changes the server has not yet heard of itself: heard later, they are not
    // written again.
    for (let round = 1; round <= 5; round += 1) {
      await adjustStock(server, user, product.id, { delta: 1 });
      await adjustStock(server, user, product.id, { delta: 1 });
      const resumed = await open(user.token, { 'last-event-id': last });
      await resumed.next(
        (event) => event.kind === 'stock.changed' && hasStock(event, 10 + 2 * round),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ids = resumed.events.map((event) => Number(event.id));
      expect(ids).toHaveLength(2);
      expect(ids[1]).toBeGreaterThan(ids[0]!);
      last = String(ids[1]);
      resumed.close();
    }
  });

  it('gives each read the stream position it saw, from which a stream misses nothing', async () => {
    const product = await createProduct(server, user, { stock: '8' });
    // The list as a screen first reads it, before its stream opens.
    const read = await server.app.inject({
      method: 'GET',
      url: '/api/products',
      headers: user.headers,
    });
    const position = read.headers['live-event-id'];
    expect(position).toMatch(/^[0-9]+$/);
    // The change lands between the read and the stream's start.
    await adjustStock(server, user, product.id, { delta: 5 });
    const stream = await open(user.token, { 'last-event-id': String(position) });
    const changed = await stream.next(
      (event) => event.kind === 'stock.changed' && (event.data as { id: string }).id === product.id,
    );
    expect(changed.data).toMatchObject({ id: product.id, stock: 13 });
    stream.close();
    // Not for a request without a session: the position is the signed-in app's.
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(anonymous.headers['live-event-id']).toBeUndefined();
  });

  it(`refuses stream ${LIVE_STREAMS_PER_USER + 1} of one user with 429 and Retry-After`, async () => {
    const someone = await signIn(server);
    const open10 = await Promise.all(
      Array.from({ length: LIVE_STREAMS_PER_USER }, () => open(someone.token)),
    );
    expect(open10.map((stream) => stream.status)).toEqual(open10.map(() => 200));
    const eleventh = await open(someone.token);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers['retry-after']).toBe('5');
    expect(JSON.parse(eleventh.text()).message).toBe(M.liveStreamsPerUser);
    // Another user is not held to this one's streams; a closed stream frees its place.
    expect((await open(stranger.token)).status).toBe(200);
    open10[0]!.close();
    await waitFor(async () => (await open(someone.token)).status === 200);
    open10.forEach((stream) => stream.close());
  });

  it('needs the Authorization header', async () => {
    const anonymous = await openEventStream(baseUrl, 'not-a-token');
    expect(anonymous.status).toBe(401);
  });

  it('ends the streams of a session that logs out, within 1 s', async () => {
    const leaving = await signIn(server);
    const stream = await open(leaving.token);
    const staying = await open(user.token);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: leaving.headers,
    });
    expect(res.statusCode).toBe(200);
    const started = performance.now();
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(staying.headers['content-type']).toContain('text/event-stream');
    let stayingEnded = false;
    void staying.ended.then(() => (stayingEnded = true));
    await new Promise((done) => setTimeout(done, 300));
    expect(stayingEnded).toBe(false);
    staying.close();
  });

  it('ends every stream of an account whose password changes, within 1 s', async () => {
    const steps = accounts(server);
    const account = await steps.signedIn();
    const otherToken = await steps.login(account.email, PASSWORD);
    const stream = await open(otherToken);
    expect(stream.status).toBe(200);
    const res = await steps.changePassword(account.token, PASSWORD, NEW_PASSWORD);
    expect(res.status).toBe(200);
    const started = performance.now();
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('closing the app and the request timeouts', async () => {
  const server = await build({
    manualClose: true,
    timeouts: { request: 300, upload: 400, keepAlive: 400 },
  });
  const baseUrl = await server.app.listen({ port: 0, host: HOST });
  const user = await signIn(server);
  // Events name the catalogue: the personal one's id is its user's.
  const { id: userId } = (await userRow(server, user.email))!;

  it('keeps a stream past the request timeouts, then ends it when the app closes', async () => {
    const stream = await openEventStream(baseUrl, user.token);
    await new Promise((done) => setTimeout(done, 1_200));
    const product = await createProduct(server, user);
    expect((await stream.next(kind('product.created'))).data).toEqual({
      catalogueId: userId,
      product,
    });

    const started = performance.now();
    await server.close();
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('the bound on streams per process', async () => {
  const server = await build({ env: { LIVE_STREAMS_MAX: '2' } });
  const baseUrl = await server.app.listen({ port: 0, host: HOST });

  it('refuses a stream beyond LIVE_STREAMS_MAX with 503 and Retry-After, whoever asks', async () => {
    const first = await signIn(server);
    const second = await signIn(server);
    const open = [
      await openEventStream(baseUrl, first.token),
      await openEventStream(baseUrl, second.token),
    ];
    const refused = await openEventStream(baseUrl, first.token);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.text()).message).toBe(M.liveStreamsFull);
    open.forEach((stream) => stream.close());
  });
});

const kind = (wanted: LiveEvent['kind']) => (event: { kind: string }) => event.kind === wanted;
const hasStock = (event: { data: unknown }, stock: number) =>
  (event.data as { stock?: number }).stock === stock;

async function waitFor(check: () => Promise<boolean>, ms = 2_000) {
  const until = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > until) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}

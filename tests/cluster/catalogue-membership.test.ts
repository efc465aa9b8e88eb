import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn } from '../server/support/inbox.js';
import { openEventStream, type EventStream } from '../support/event-stream.js';
import { startCluster, type Cluster, type Instance } from './cluster.js';
import { bodyOf, HttpClient, type Request } from './http.js';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds, failing after `ms`. */
async function eventually(ms: number, check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${ms} ms`);
    await sleep(20);
  }
}

describe('a member removed through one instance, on another', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let a: Instance;
  let b: Instance;
  const client = new HttpClient();
  const streams: EventStream[] = [];
  const on = (instance: Instance, request: Request) => client.send(instance.url, request);

  beforeAll(async () => {
    cluster = await startCluster({ size: 2, postgresUrl, redisUrl });
    [a, b] = cluster.instances as [Instance, Instance];
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    client.close();
    await cluster?.stop();
  });

  /** Signs up, confirms with the mailed code and logs in: the token and the user's id. */
  async function account(name: string) {
    const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
    const password = 'first-Password-1';
    const signup = await on(a, {
      method: 'POST',
      path: '/api/auth/signup',
      json: { name, email, password, confirmPassword: password },
    });
    expect(signup.status).toBe(201);
    let code: string | undefined;
    await eventually(15_000, () => {
      code = cluster.smtp.mailsTo(email).map(codeIn).find(Boolean);
      return code !== undefined;
    });
    const confirm = await on(a, {
      method: 'POST',
      path: '/api/auth/confirm-account',
      json: { token: code, email },
    });
    expect(confirm.status).toBe(200);
    const login = await on(a, {
      method: 'POST',
      path: '/api/auth/login',
      json: { email, password },
    });
    const { token } = bodyOf<{ token: string }>(login);
    const me = bodyOf<{ user: { id: string } }>(await on(a, { path: '/api/auth/user', token }));
    return { email, token, id: me.user.id };
  }

  const createProduct = (instance: Instance, token: string, path: string, name: string) => {
    const form = new FormData();
    form.set('name', name);
    form.set('price', '1.00');
    form.set('stock', '1');
    return on(instance, { method: 'POST', path, token, form });
  };

  it('is refused on the other instance at once, and B ends its stream', async () => {
    const owner = await account('Owner');
    const member = await account('Member');
    const created = await on(a, {
      method: 'POST',
      path: '/api/catalogues',
      token: owner.token,
      json: { name: 'Shared' },
    });
    expect(created.status).toBe(201);
    const catalogueId = bodyOf<{ catalogue: { id: string } }>(created).catalogue.id;
    const invited = await on(a, {
      method: 'POST',
      path: `/api/catalogues/${catalogueId}/invitations`,
      token: owner.token,
      json: { email: member.email, role: 'editor' },
    });
    expect(invited.status).toBe(201);
    const invitationId = bodyOf<{ invitation: { id: string } }>(invited).invitation.id;

    // The member's stream is open on B before they join: it starts carrying the catalogue then.
    const stream = await openEventStream(b.url, member.token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    const accepted = await on(a, {
      method: 'POST',
      path: `/api/invitations/${invitationId}/accept`,
      token: member.token,
    });
    expect(accepted.status).toBe(200);
    const joined = await stream.next((event) => event.kind === 'catalogue.updated', 2_000);
    expect(joined.data).toEqual({ catalogueId });

    const products = `/api/catalogues/${catalogueId}/products`;
    expect((await createProduct(a, owner.token, products, 'Before')).status).toBe(201);
    const before = await stream.next((event) => event.kind === 'product.created', 2_000);
    expect(before.data).toMatchObject({ catalogueId, product: { name: 'Before' } });
    expect((await on(b, { path: products, token: member.token })).status).toBe(200);

    const removed = await on(a, {
      method: 'DELETE',
      path: `/api/catalogues/${catalogueId}/members/${member.id}`,
      token: owner.token,
    });
    expect(bodyOf(removed)).toEqual({ message: 'Member removed' });
    // B reads the membership on every request: refused on the very next one.
    const refused = await on(b, { path: products, token: member.token });
    expect({ status: refused.status, ...bodyOf(refused) }).toEqual({
      status: 404,
      message: 'Catalogue not found',
    });
    const gone = await stream.next((event) => event.kind === 'catalogue.removed', 1_000);
    expect(gone.data).toEqual({ catalogueId });

    // The stream ends with it; the member's next stream carries their own catalogue only.
    await Promise.race([stream.ended, sleep(1_000).then(() => Promise.reject(new Error('open')))]);
    const next = await openEventStream(b.url, member.token, { 'last-event-id': gone.id! });
    streams.push(next);
    expect((await createProduct(a, owner.token, products, 'After')).status).toBe(201);
    expect((await createProduct(b, member.token, '/api/products', 'Mine')).status).toBe(201);
    const mine = await next.next((event) => event.kind === 'product.created', 2_000);
    expect(mine.data).toMatchObject({ catalogueId: member.id, product: { name: 'Mine' } });
    await sleep(300);
    expect(JSON.stringify(next.events)).not.toContain('After');
  });
});

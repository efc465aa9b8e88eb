import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M } from '../../src/shared/messages.js';
import { repoRoot } from '../server/support/processes.js';
import { jpeg, png } from '../server/support/images.js';
import { codeIn } from '../server/support/inbox.js';
import { startCluster, type Cluster, type Instance } from './cluster.js';
import { bodyOf, HttpClient, type Answer, type Request } from './http.js';
import { openEventStream } from '../support/event-stream.js';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const INSTANCES = 3;
/** How soon a change made through one instance must show on every other (ADR 009). */
const BOUND_MS = 1_000;
/** The product's default: 20 requests a minute per client address on each sensitive endpoint. */
const SENSITIVE_LIMIT = 20;
/** Where the rate limits count in Redis (app.ts), per route and client address. */
const loginCounterKey = (address: string) => `stockroom:rate-limit:POST/api/auth/login-${address}`;

interface Product {
  id: string;
  name: string;
  image: string;
  thumbnail: string;
  stock: number;
}
interface ProductAnswer {
  message: string;
  product: Product;
}
interface TokenAnswer {
  message: string;
  token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `check` until it is true; how long that took, or an error after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    const took = performance.now() - started;
    if (took > limitMs) throw new Error(`still not so after ${Math.round(took)} ms`);
    await sleep(20);
  }
}

/** A file for a FormData body (copied: a Blob takes no view of Node's pooled buffers). */
const imageBlob = (data: Buffer, type: string) => new Blob([new Uint8Array(data)], { type });
const imageNameOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const imagePathOf = (url: string) => new URL(url).pathname;

describe('three instances behind a round-robin proxy', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  const clients: HttpClient[] = [];
  let redis: Redis;

  /** A client machine of its own: a random address, which the counts of earlier runs in Redis do not touch. */
  const newClient = () => {
    const client = new HttpClient();
    clients.push(client);
    return client;
  };
  const viaProxy = (client: HttpClient, request: Request) =>
    client.send(cluster.proxy.url, request);
  const direct = (client: HttpClient, instance: Instance, request: Request) =>
    client.send(instance.url, request);
  /** The same request sent to every instance directly, in parallel. */
  const onEvery = (client: HttpClient, request: Request) =>
    Promise.all(cluster.instances.map((instance) => direct(client, instance, request)));
  /**
   * Waits, on every instance at once, until `check` holds for its answer to `request`; each must
   * get there within BOUND_MS of now. Returns how long each took.
   */
  async function seenByEvery(
    client: HttpClient,
    request: Request,
    check: (answer: Answer) => boolean,
  ): Promise<number[]> {
    const took = await Promise.all(
      cluster.instances.map(async (instance, i) => {
        let last: Answer | undefined;
        try {
          return await within(BOUND_MS * 3, async () => {
            last = await direct(client, instance, request);
            return check(last);
          });
        } catch (error) {
          const answer = last && `${last.status} ${last.body.toString('utf8').slice(0, 300)}`;
          throw new Error(`instance ${i}: ${(error as Error).message}; last answer: ${answer}`);
        }
      }),
    );
    for (const ms of took) expect(ms).toBeLessThan(BOUND_MS);
    return took;
  }
  /** Which instances the proxy sent the requests of `step` to. */
  async function instancesServing<T>(step: () => Promise<T>): Promise<[T, Set<number>]> {
    const before = cluster.proxy.served.length;
    const result = await step();
    return [result, new Set(cluster.proxy.served.slice(before))];
  }
  /**
   * The code of the first mail to `email` after the first `seen` of them that carries one, as it
   * arrives (a notice of an earlier step, such as "password changed", may still come first).
   */
  async function nextCode(email: string, seen: number): Promise<string> {
    let code: string | undefined;
    await within(15_000, async () => {
      const mails = cluster.smtp.mailsTo(email).slice(seen);
      code = mails.map(codeIn).find(Boolean);
      return code !== undefined;
    });
    return code!;
  }

  beforeAll(async () => {
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      throw new Error(
        `the cluster test needs Redis at ${redisUrl} (redis-server --port 6379): ${String(error)}`,
      );
    }
    cluster = await startCluster({ size: INSTANCES, postgresUrl, redisUrl });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.stop();
    // Only the counters of this run's addresses: Redis may be shared with other runs.
    if (redis?.status === 'ready') {
      for (const client of clients) {
        const keys = await redis.keys(`stockroom:rate-limit:*-${client.address}`);
        if (keys.length > 0) await redis.del(...keys);
      }
    }
    redis?.disconnect();
  });

  it('all start at the same moment on an empty database; each migration runs once', async () => {
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select name from kysely_migration order by name',
      );
      // Every migration file, not the SQL a migration keeps in a module beside it (NNN_name_sql).
      const files = (await readdir(path.join(repoRoot, 'src/server/infra/db/migrations'))).filter(
        (file) => !file.endsWith('_sql.ts'),
      );
      expect(rows.map((row) => row.name)).toEqual(
        files.map((file) => file.replace(/\.ts$/, '')).sort(),
      );
    } finally {
      await client.end();
    }
    for (const { entry } of cluster.instances) expect(entry.child.exitCode).toBeNull();
  });

  // The account the later steps use, and what they leave for the next.
  const account = {
    name: 'Grace Hopper',
    email: `cluster-${Date.now()}@example.com`,
    password: 'first-Password-1',
  };
  let token = '';

  it('signs up, confirms and logs in, each step on another instance', async () => {
    const client = newClient();
    const [, spread] = await instancesServing(async () => {
      const signup = await viaProxy(client, {
        method: 'POST',
        path: '/api/auth/signup',
        json: { ...account, confirmPassword: account.password },
      });
      expect({ status: signup.status, ...bodyOf(signup) }).toEqual({
        status: 201,
        message: M.signupDone,
      });
      const code = await nextCode(account.email, 0);
      const confirm = await viaProxy(client, {
        method: 'POST',
        path: '/api/auth/confirm-account',
        json: { token: code, email: account.email },
      });
      expect({ status: confirm.status, ...bodyOf(confirm) }).toEqual({
        status: 200,
        message: M.accountConfirmed,
      });
      const login = await viaProxy(client, {
        method: 'POST',
        path: '/api/auth/login',
        json: { email: account.email, password: account.password },
      });
      expect(login.status).toBe(200);
      expect(bodyOf<TokenAnswer>(login)).toEqual({
        message: M.loginDone,
        token: expect.any(String),
      });
      token = bodyOf<TokenAnswer>(login).token;
    });
    expect(spread.size).toBe(INSTANCES);

    for (const answer of await onEvery(client, { path: '/api/auth/user', token })) {
      expect(answer.status).toBe(200);
      expect(bodyOf<{ user: { email: string } }>(answer).user.email).toBe(account.email);
    }
  });

  let product: Product;
  /** The bucket's picture objects once the product has been edited, sorted. */
  let pictures: string[] = [];
  /** Every image object in the bucket. */
  const bucketImages = () => cluster.s3.keys('images/');

  it('creates a product with an image: every instance lists it within 1 s and serves the same picture', async () => {
    const client = newClient();
    // Each instance has answered the empty list already (and may keep that answer cached).
    for (const answer of await onEvery(client, { path: '/api/products', token })) {
      expect(bodyOf<{ products: Product[] }>(answer).products).toEqual([]);
    }
    expect(await bucketImages()).toEqual([]);

    const form = new FormData();
    form.append('name', 'Cluster lamp');
    form.append('price', '19.99');
    form.append('stock', '3');
    form.append('description', 'Made by three processes');
    form.append('image', imageBlob(await jpeg(640, 480), 'image/jpeg'), 'lamp.jpg');
    const created = await viaProxy(client, {
      method: 'POST',
      path: '/api/products',
      token,
      form,
    });
    expect(created.status).toBe(201);
    expect(bodyOf<ProductAnswer>(created).message).toBe(M.productCreated);
    product = bodyOf<ProductAnswer>(created).product;
    // Image URLs point at the balancer, not at whichever instance took the upload.
    expect(product.image.startsWith(`${cluster.proxy.url}/api/images/`)).toBe(true);

    await seenByEvery(client, { path: '/api/products', token }, (answer) =>
      bodyOf<{ products: Product[] }>(answer).products.some((item) => item.id === product.id),
    );

    const names = [imageNameOf(product.image), imageNameOf(product.thumbnail)];
    expect(await bucketImages()).toEqual(names.map((name) => `images/${name}`).sort());
    for (const url of [product.image, product.thumbnail]) {
      const stored = await cluster.s3.object(`images/${imageNameOf(url)}`);
      const served = [
        ...(await onEvery(client, { path: imagePathOf(url) })),
        await viaProxy(client, { path: imagePathOf(url) }),
      ];
      for (const answer of served) {
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe('image/webp');
        expect(answer.body.equals(stored.body)).toBe(true);
      }
    }
  });

  it('edits it with a new image: the change shows everywhere within 1 s, the old picture kept on every instance while the edit can be undone', async () => {
    const client = newClient();
    for (const answer of await onEvery(client, { path: `/api/products/${product.id}`, token })) {
      expect(bodyOf<ProductAnswer>(answer).product.name).toBe('Cluster lamp');
    }
    const form = new FormData();
    form.append('name', 'Cluster lamp, blue');
    form.append('image', imageBlob(await png(320, 320), 'image/png'), 'blue.png');
    const edited = await viaProxy(client, {
      method: 'PATCH',
      path: `/api/products/${product.id}`,
      token,
      form,
    });
    expect(edited.status).toBe(200);
    expect(bodyOf<ProductAnswer>(edited).message).toBe(M.productUpdated);
    const old = product;
    product = bodyOf<ProductAnswer>(edited).product;
    expect(product.image).not.toBe(old.image);

    await seenByEvery(
      client,
      { path: `/api/products/${product.id}`, token },
      (answer) => bodyOf<ProductAnswer>(answer).product?.name === 'Cluster lamp, blue',
    );
    await seenByEvery(client, { path: '/api/products', token }, (answer) =>
      bodyOf<{ products: Product[] }>(answer).products.some(
        (item) => item.id === product.id && item.image === product.image,
      ),
    );

    // The old picture stays for 7 days, while the edit can be undone (the orphan sweep's rule).
    for (const url of [old.image, old.thumbnail]) {
      for (const answer of await onEvery(client, { path: imagePathOf(url) })) {
        expect(answer.status).toBe(200);
      }
    }
    pictures = [old.image, old.thumbnail, product.image, product.thumbnail]
      .map((url) => `images/${imageNameOf(url)}`)
      .sort();
    expect(await bucketImages()).toEqual(pictures);
    const stored = await cluster.s3.object(`images/${imageNameOf(product.image)}`);
    for (const answer of await onEvery(client, { path: imagePathOf(product.image) })) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(stored.body)).toBe(true);
    }
  });

  it('deletes it: gone from every instance within 1 s, its pictures kept while the delete can be undone', async () => {
    const client = newClient();
    const deleted = await viaProxy(client, {
      method: 'DELETE',
      path: `/api/products/${product.id}`,
      token,
    });
    expect({ status: deleted.status, ...bodyOf(deleted) }).toEqual({
      status: 200,
      message: M.productDeleted,
    });
    await seenByEvery(client, { path: '/api/products', token }, (answer) =>
      bodyOf<{ products: Product[] }>(answer).products.every((item) => item.id !== product.id),
    );
    for (const answer of await onEvery(client, { path: `/api/products/${product.id}`, token })) {
      expect({ status: answer.status, ...bodyOf(answer) }).toEqual({
        status: 404,
        message: M.productNotFound,
      });
    }
    // Kept for 7 days, while the delete can be undone (the orphan sweep's rule).
    for (const url of [product.image, product.thumbnail]) {
      for (const answer of [
        ...(await onEvery(client, { path: imagePathOf(url) })),
        await viaProxy(client, { path: imagePathOf(url) }),
      ]) {
        expect(answer.status).toBe(200);
      }
    }
    expect(await bucketImages()).toEqual(pictures);
  });

  it('adjusts stock through every instance at once: each +1 lands, every instance shows the sum within 1 s', async () => {
    const client = newClient();
    const created = await viaProxy(client, {
      method: 'POST',
      path: '/api/products',
      token,
      json: { name: 'Cluster crate', price: '4.50', stock: '0', description: 'Counted by three' },
    });
    expect(created.status).toBe(201);
    const crate = bodyOf<ProductAnswer>(created).product;
    const stockPath = `/api/products/${crate.id}/stock`;
    // Each instance has read the product (and may keep that answer cached).
    for (const answer of await onEvery(client, { path: `/api/products/${crate.id}`, token })) {
      expect(bodyOf<ProductAnswer>(answer).product.stock).toBe(0);
    }
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        viaProxy(client, { method: 'POST', path: stockPath, token, json: { delta: 1 } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
    await seenByEvery(
      client,
      { path: `/api/products/${crate.id}`, token },
      (answer) => bodyOf<ProductAnswer>(answer).product?.stock === 60,
    );
    const below = await viaProxy(client, {
      method: 'POST',
      path: stockPath,
      token,
      json: { delta: -61 },
    });
    expect(below.status).toBe(409);
    const history = await viaProxy(client, {
      path: `/api/products/${crate.id}/movements?limit=100`,
      token,
    });
    expect(bodyOf<{ movements: unknown[] }>(history).movements).toHaveLength(61);

    const deleted = await viaProxy(client, {
      method: 'POST',
      path: '/api/products/bulk-delete',
      token,
      json: { ids: [crate.id] },
    });
    expect(deleted.status).toBe(200);
    await seenByEvery(client, { path: '/api/products', token }, (answer) =>
      bodyOf<{ products: Product[] }>(answer).products.every((item) => item.id !== crate.id),
    );
  });

  /** Logs in through the proxy and has every instance answer for the token once (cached now). */
  async function signedInEverywhere(client: HttpClient, password: string): Promise<string> {
    const login = await viaProxy(client, {
      method: 'POST',
      path: '/api/auth/login',
      json: { email: account.email, password },
    });
    expect(login.status).toBe(200);
    const fresh = bodyOf<TokenAnswer>(login).token;
    for (let round = 0; round < 2; round += 1) {
      for (const answer of await onEvery(client, { path: '/api/auth/user', token: fresh })) {
        expect(answer.status).toBe(200);
      }
    }
    return fresh;
  }
  const refused = (answer: Answer) =>
    answer.status === 401 && bodyOf(answer).message === M.unauthorized;
  const accepted = (answer: Answer) => answer.status === 200;

  it('streams an adjustment made through one instance to the event streams of the others within 1 s', async () => {
    const client = newClient();
    const [a, ...others] = cluster.instances;
    const created = await direct(client, a!, {
      method: 'POST',
      path: '/api/products',
      token,
      json: { name: 'Streamed', description: 'Watched live', price: 1, stock: 5 },
    });
    expect(created.status).toBe(201);
    const { id } = bodyOf<ProductAnswer>(created).product;
    const streams = await Promise.all(
      others.map((instance) => openEventStream(instance.url, token)),
    );
    try {
      expect(streams.map((stream) => stream.status)).toEqual(others.map(() => 200));
      const started = performance.now();
      const adjusted = await direct(client, a!, {
        method: 'POST',
        path: `/api/products/${id}/stock`,
        token,
        json: { delta: 2 },
      });
      expect(adjusted.status).toBe(200);
      const seen = await Promise.all(
        streams.map((stream) =>
          stream
            .next((event) => event.kind === 'stock.changed', BOUND_MS)
            .then((event) => {
              expect(event.data).toMatchObject({ id, stock: 7 });
              return performance.now() - started;
            }),
        ),
      );
      for (const took of seen) expect(took).toBeLessThan(BOUND_MS);
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it('logs out: every instance refuses the old token within 1 s, and still takes the others', async () => {
    const client = newClient();
    const other = await signedInEverywhere(client, account.password);
    await signedInEverywhere(client, account.password).then((fresh) => (token = fresh));
    const logout = await viaProxy(client, { method: 'POST', path: '/api/auth/logout', token });
    expect({ status: logout.status, ...bodyOf(logout) }).toEqual({
      status: 200,
      message: M.loggedOut,
    });
    await seenByEvery(client, { path: '/api/auth/user', token }, refused);
    for (const answer of await onEvery(client, { path: '/api/auth/user', token: other })) {
      expect(answer.status).toBe(200);
    }
    token = other;
  });

  it('changes the password: every instance refuses the other tokens within 1 s and keeps this one', async () => {
    const client = newClient();
    const elsewhere = await signedInEverywhere(client, account.password);
    const changed = await viaProxy(client, {
      method: 'POST',
      path: '/api/auth/profile/change-password',
      token,
      json: {
        currentPassword: account.password,
        newPassword: 'second-Password-2',
        confirmNewPassword: 'second-Password-2',
      },
    });
    expect(changed.status).toBe(200);
    expect(bodyOf(changed)).toEqual({ message: M.passwordChanged });
    account.password = 'second-Password-2';
    await seenByEvery(client, { path: '/api/auth/user', token: elsewhere }, refused);
    for (const answer of await onEvery(client, { path: '/api/auth/user', token })) {
      expect(answer.status).toBe(200);
    }
  });

  it('resets the password: every instance refuses every token of the account within 1 s', async () => {
    const client = newClient();
    const another = await signedInEverywhere(client, account.password);
    for (const answer of await onEvery(client, { path: '/api/auth/user', token })) {
      expect(answer.status).toBe(200);
    }
    const seen = cluster.smtp.mailsTo(account.email).length;
    const forgot = await viaProxy(client, {
      method: 'POST',
      path: '/api/auth/forgot-password',
      json: { email: account.email },
    });
    expect({ status: forgot.status, ...bodyOf(forgot) }).toEqual({
      status: 200,
      message: M.forgotDone,
    });
    const code = await nextCode(account.email, seen);
    const reset = await viaProxy(client, {
      method: 'POST',
      path: `/api/auth/reset-password/${code}`,
      json: {
        password: 'third-Password-3',
        confirmPassword: 'third-Password-3',
        email: account.email,
      },
    });
    expect({ status: reset.status, ...bodyOf(reset) }).toEqual({
      status: 200,
      message: M.passwordReset,
    });
    account.password = 'third-Password-3';
    await Promise.all([
      seenByEvery(client, { path: '/api/auth/user', token }, refused),
      seenByEvery(client, { path: '/api/auth/user', token: another }, refused),
    ]);
    token = await signedInEverywhere(client, account.password);
    await seenByEvery(client, { path: '/api/auth/user', token }, accepted);
  });

  it('counts wrong logins of one client over every instance: 20 are answered, the 21st is 429', async () => {
    const attacker = newClient();
    const wrongLogin = () =>
      viaProxy(attacker, {
        method: 'POST',
        path: '/api/auth/login',
        json: { email: account.email, password: 'not-the-Password-0' },
      });
    // In parallel, so the instances count at the same moment.
    const [first, spread] = await instancesServing(() =>
      Promise.all(Array.from({ length: SENSITIVE_LIMIT }, wrongLogin)),
    );
    expect(spread.size).toBe(INSTANCES);
    expect(first.map((answer) => `${answer.status} ${bodyOf(answer).message}`)).toEqual(
      Array(SENSITIVE_LIMIT).fill(`400 ${M.badCredentials}`),
    );
    const limited = await wrongLogin();
    expect({ status: limited.status, ...bodyOf(limited) }).toEqual({
      status: 429,
      message: M.tooManyRequests,
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // One count in Redis for this client, whichever instance answered.
    expect(await redis.get(loginCounterKey(attacker.address))).toBe(String(SENSITIVE_LIMIT + 1));

    // Another client is not held back by it.
    const login = await viaProxy(newClient(), {
      method: 'POST',
      path: '/api/auth/login',
      json: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(200);
  });

  it('every instance stops cleanly on SIGTERM', async () => {
    expect(await cluster.terminate()).toEqual(Array(INSTANCES).fill(0));
  });
});

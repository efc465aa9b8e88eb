import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn } from '../server/support/inbox.js';
import { startCluster, type Cluster, type Instance } from './cluster.js';
import { bodyOf, HttpClient, type Request } from './http.js';

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(ms: number, check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${ms} ms`);
    await sleep(50);
  }
}

/**
 * Three instances run the digest's job every second from midnight UTC on: each user who opted in
 * gets one digest a day, whichever instance claims it, and a restart of all of them sends no
 * second one (the day's claim is in the database).
 */
describe('the low-stock digest on three instances', { timeout: 120_000 }, () => {
  let cluster: Cluster;
  const client = new HttpClient();
  const on = (instance: Instance, request: Request) => client.send(instance.url, request);
  const instance = (i: number) => cluster.instances[i % cluster.instances.length]!;

  beforeAll(async () => {
    cluster = await startCluster({
      size: 3,
      postgresUrl,
      redisUrl,
      env: { LOW_STOCK_DIGEST_HOUR: '0', LOW_STOCK_DIGEST_INTERVAL_SECONDS: '1' },
    });
  }, 120_000);

  afterAll(async () => {
    client.close();
    await cluster?.stop();
  });

  async function account(name: string, i: number) {
    const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
    const password = 'first-Password-1';
    const signup = await on(instance(i), {
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
    await on(instance(i), {
      method: 'POST',
      path: '/api/auth/confirm-account',
      json: { token: code, email },
    });
    const login = await on(instance(i), {
      method: 'POST',
      path: '/api/auth/login',
      json: { email, password },
    });
    const { token } = bodyOf<{ token: string }>(login);
    return { email, token };
  }

  const digestsTo = (email: string) =>
    cluster.smtp.mailsTo(email).filter((mail) => mail.subject.startsWith('Low stock:'));

  const lowProduct = (i: number, token: string, name: string) => {
    const form = new FormData();
    form.set('name', name);
    form.set('price', '1.00');
    form.set('stock', '2');
    form.set('description', 'Made in the cluster test');
    return on(instance(i), { method: 'POST', path: '/api/products', token, form });
  };

  it('sends each user one digest a day, across instances and a restart', async () => {
    const users = await Promise.all(['Ada', 'Grace', 'Alan'].map((name, i) => account(name, i)));
    for (const [i, user] of users.entries()) {
      const optIn = await on(instance(i + 1), {
        method: 'PATCH',
        path: '/api/auth/preferences',
        token: user.token,
        json: { lowStockDigest: true },
      });
      expect(optIn.status).toBe(200);
      expect((await lowProduct(i + 2, user.token, `Low ${i}`)).status).toBe(201);
    }
    await eventually(20_000, () => users.every((user) => digestsTo(user.email).length > 0));
    // Several passes of every instance later: still one each.
    await sleep(3_000);
    for (const user of users) {
      const digests = digestsTo(user.email);
      expect(digests).toHaveLength(1);
      expect(digests[0]!.subject).toBe('Low stock: 1 product to reorder');
    }

    await cluster.restart();
    // A new crossing the same day waits for tomorrow, whichever instance runs the job.
    expect((await lowProduct(0, users[0]!.token, 'Later')).status).toBe(201);
    await sleep(4_000);
    for (const user of users) expect(digestsTo(user.email)).toHaveLength(1);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { injectClient, newEmail, PASSWORD } from '../support/accounts.js';
import { build } from '../support/build.js';

/** The Redis server the suite uses; this file reaches it through a relay it can stall. */
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

const median = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** Logins a minute per address here: more than the file makes from one before Redis comes back. */
const LOGINS = 25;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a Redis that stops answering', async () => {
  const proxy = new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
  const proxied = new URL(redisUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(await proxy.start());
  afterAll(() => proxy.stop());
  const server = await build({
    env: { REDIS_URL: proxied.toString() },
    rateLimits: { windowMs: 60_000, sensitive: LOGINS, general: 1_000 },
    rateLimitNamespace: `stockroom-test-${randomBytes(6).toString('hex')}:`,
  });
  const client = injectClient(server.app);
  /** A read and a write, both under a rate limit, each timed. */
  const timed = async (ip: string) => {
    const times: number[] = [];
    const statuses: number[] = [];
    for (const request of [
      () => client({ method: 'GET', url: '/api/auth/user', remoteAddress: ip }),
      () =>
        client({
          url: '/api/auth/login',
          body: { email: newEmail('stalled'), password: PASSWORD },
          remoteAddress: ip,
        }),
    ]) {
      const started = performance.now();
      statuses.push((await request()).status);
      times.push(performance.now() - started);
    }
    return { times, statuses };
  };

  it('costs a request no more than 50 ms, and counts again once it answers', async () => {
    const before: number[] = [];
    for (let i = 0; i < 20; i += 1) before.push(...(await timed('10.3.0.1')).times);

    proxy.stall();
    // Over two seconds, so that the time Redis is left alone after a timeout runs out in between.
    const during: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const { times, statuses } = await timed('10.3.0.2');
      expect(statuses).toEqual([401, 400]);
      during.push(...times);
      await pause(100);
    }
    // The slowest request pays at most one command's time limit more than the slowest before
    // (a busy machine slows both alike), and most pay nothing.
    expect(Math.max(...during) - Math.max(...before)).toBeLessThan(50);
    expect(median(during) - median(before)).toBeLessThan(10);

    proxy.unstall();
    await pause(1_200);
    // Counted in Redis again: the login budget of a new address runs out (a login that met a
    // slow answer on this busy machine goes uncounted, so allow a few more tries).
    const after: number[] = [];
    while (after.length < 2 * LOGINS && after.at(-1) !== 429) {
      after.push((await timed('10.3.0.3')).statuses[1]!);
    }
    expect(after.at(-1)).toBe(429);
    expect(after.length).toBeGreaterThan(LOGINS);
  });
});

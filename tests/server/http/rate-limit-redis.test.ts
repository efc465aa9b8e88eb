import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../src/server/app.js';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { M } from '../../../src/shared/messages.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { injectClient, newEmail, PASSWORD, type ApiResponse } from '../support/accounts.js';
import { build, checkAnswersOf, type TestServer } from '../support/build.js';

/** The Redis server the suite uses (shared with other tests: every app here has its own keys). */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The product's limits: 20 sensitive requests a minute per IP. */
const limits = { windowMs: 60_000, sensitive: 20, general: 300 };

const wrongLogin = (app: App, ip: string): Promise<ApiResponse> =>
  injectClient(app)({
    url: '/api/auth/login',
    body: { email: newEmail('limited'), password: PASSWORD },
    remoteAddress: ip,
  });

/** Log lines the app wrote, parsed. */
function logCollector() {
  const lines: { level: number; msg: string }[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

describe('REDIS_URL', () => {
  it('takes redis:// and rediss:// URLs', () => {
    const secret = 'a-secret-that-is-at-least-32-characters-long';
    expect(loadConfig({ APP_SECRET: secret }).redisUrl).toBeUndefined();
    expect(loadConfig({ APP_SECRET: secret, REDIS_URL: 'redis://cache:6379' }).redisUrl).toBe(
      'redis://cache:6379',
    );
    expect(loadConfig({ APP_SECRET: secret, REDIS_URL: 'rediss://u:p@cache/2' }).redisUrl).toBe(
      'rediss://u:p@cache/2',
    );
  });

  it('stops start-up with one line naming the variable when it is not one', () => {
    for (const bad of ['http://cache:6379', 'cache:6379', 'redis://']) {
      let problems: string[] = [];
      try {
        loadConfig({ APP_SECRET: 'a-secret-that-is-at-least-32-characters-long', REDIS_URL: bad });
      } catch (error) {
        if (error instanceof ConfigError) problems = error.problems;
      }
      expect(problems).toEqual([expect.stringMatching(/^REDIS_URL must be a redis:\/\/ or/)]);
    }
  });
});

describe('rate limits shared through Redis', async () => {
  // Keys of this file only, so other users of the same Redis never meet them.
  const namespace = `stockroom-test-${randomBytes(6).toString('hex')}:`;
  const server: TestServer = await build({
    env: { REDIS_URL: redisUrl },
    rateLimits: limits,
    rateLimitNamespace: namespace,
  });
  /** Another instance of the server on the same database and Redis. */
  const instance = () =>
    buildApp({
      config: server.config,
      database: server.database,
      clock: server.clock,
      clientDir: path.join(server.dataDir, 'no-client'),
      rateLimits: limits,
      rateLimitNamespace: namespace,
    });
  const other = await checkAnswersOf(await instance());
  afterAll(() => other.close());

  it('counts the wrong logins of one IP over every instance: the 21st is refused', async () => {
    const ip = '10.1.0.1';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => wrongLogin(i % 2 === 0 ? server.app : other, ip)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(400));
    for (const app of [server.app, other]) {
      const limited = await wrongLogin(app, ip);
      expect({ status: limited.status, message: limited.body.message }).toEqual({
        status: 429,
        message: M.tooManyRequests,
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await wrongLogin(other, '10.1.0.2')).status).toBe(400);
  });

  it('keeps the budget over a restart', async () => {
    const ip = '10.1.0.3';
    for (let i = 0; i < 20; i += 1) expect((await wrongLogin(other, ip)).status).toBe(400);
    const restarted = await instance();
    try {
      expect((await wrongLogin(restarted, ip)).status).toBe(429);
    } finally {
      await restarted.close();
    }
  });
});

describe('when Redis goes away', async () => {
  const target = new URL(redisUrl);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
  const proxied = new URL(redisUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(await proxy.start());
  const log = logCollector();
  const server = await build({
    env: { REDIS_URL: proxied.toString(), LOG_LEVEL: 'info' },
    rateLimits: { ...limits, general: 5 },
    rateLimitNamespace: `stockroom-test-${randomBytes(6).toString('hex')}:`,
    logStream: log.stream,
  });
  afterAll(() => proxy.stop());
  /** A cheap request under the general limit (5 a minute here): 401 without a token. */
  const anonymousRead = (ip: string) =>
    injectClient(server.app)({ method: 'GET', url: '/api/auth/user', remoteAddress: ip });
  const redisLines = (level: number) =>
    log.lines.filter((line) => line.level === level && /redis/i.test(line.msg));

  it('keeps answering (fail open), says so in the log, and limits again once it is back', async () => {
    expect((await anonymousRead('10.2.0.1')).status).toBe(401); // connected and counting
    await proxy.cut();

    // Twice the limit, in parallel: every one answered at once, none refused, none failed.
    const started = Date.now();
    const during = await Promise.all(Array.from({ length: 10 }, () => anonymousRead('10.2.0.2')));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(during.map((answer) => answer.status)).toEqual(Array(10).fill(401));
    expect((await wrongLogin(server.app, '10.2.0.2')).status).toBe(400);
    expect(redisLines(40)).not.toEqual([]);

    const warned = log.lines.length;
    await proxy.restore();
    const deadline = Date.now() + 10_000;
    while (!log.lines.slice(warned).some((line) => line.level === 30 && /redis/i.test(line.msg))) {
      if (Date.now() > deadline) throw new Error('no reconnection was logged within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Limits apply again: a fresh address gets five answers, then 429. A command that misses its
    // 40 ms on a loaded machine skips counting for a second, so a round may come short; the limit
    // must be back within 5 s all the same.
    const limitedBy = Date.now() + 5_000;
    let after: number[] = [];
    for (let round = 0; Date.now() < limitedBy; round += 1) {
      after = [];
      for (let i = 0; i < 6; i += 1) after.push((await anonymousRead(`10.3.${round}.1`)).status);
      if (after.at(-1) === 429) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(after).toEqual([...Array(5).fill(401), 429]);
  });
});

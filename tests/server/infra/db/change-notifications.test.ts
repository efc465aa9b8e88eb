import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../../../src/server/app.js';
import { LISTENER_APPLICATION_NAME } from '../../../../src/server/infra/db/change-listener.js';
import { openDatabase } from '../../../../src/server/infra/db/open.js';
import type { DatabaseHandle } from '../../../../src/server/infra/db/handle.js';
import { build, failOnUndocumented, watchAnswersOf, type TestServer } from '../../support/build.js';
import { adjustStock, bulkDelete, createProduct, importCsv } from '../../support/products.js';
import { signIn, type SignedIn } from '../../support/accounts.js';

const baseUrl = process.env.TEST_DATABASE_URL;
/** How soon a change made through one instance must show on every other (ADR 009). */
const BOUND_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `check` until it returns true; returns how long that took, or fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await sleep(10);
  }
}

/**
 * How many sessions or products `read` queried on `database` (the mail worker may read other tables
 * meanwhile).
 */
async function queriesOf(database: DatabaseHandle, read: () => Promise<unknown>) {
  const spy = vi.spyOn(database.db, 'selectFrom');
  try {
    await read();
    return spy.mock.calls.filter(([from]) => from === 'sessions' || from === 'products').length;
  } finally {
    spy.mockRestore();
  }
}

/**
 * Repeats `read` until one costs no query: how a cached read looks once the notifications of the
 * writes before it (the sign-in's, say) have arrived.
 */
const cached = (database: DatabaseHandle, read: () => Promise<unknown>) =>
  within(BOUND_MS, async () => (await queriesOf(database, read)) === 0);

const me = (app: App, user: { headers: { authorization: string } }) =>
  app.inject({ method: 'GET', url: '/api/auth/user', headers: user.headers });
const listNames = async (app: App, user: SignedIn) =>
  (
    (await app.inject({ method: 'GET', url: '/api/products', headers: user.headers })).json() as {
      products: { name: string }[];
    }
  ).products.map((product) => product.name);

describe.skipIf(!baseUrl)('cached reads on PostgreSQL, kept exact by change notifications', () => {
  describe('two instances on one database', () => {
    let server: TestServer;
    // Another instance: its own connections and its own listener, as another process has.
    let otherDatabase: DatabaseHandle;
    let other: App;
    let otherAnswers: (() => string[]) | undefined;
    beforeAll(async () => {
      server = await build({ manualClose: true });
      otherDatabase = await openDatabase(server.config);
      other = await buildApp({
        config: server.config,
        database: otherDatabase,
        clock: server.clock,
        clientDir: path.join(server.dataDir, 'no-client'),
        rateLimits: { sensitive: 10_000, general: 10_000 },
      });
      otherAnswers = await watchAnswersOf(other);
    });
    afterEach(() => {
      failOnUndocumented([...server.takeUndocumentedAnswers(), ...(otherAnswers?.() ?? [])]);
    });
    afterAll(async () => {
      await other?.close();
      await otherDatabase?.close();
      await server?.close();
    });

    it('answers a repeated authenticated read without the database', async () => {
      const user = await signIn(server);
      expect((await me(other, user)).statusCode).toBe(200);
      await cached(otherDatabase, () => me(other, user));
      await cached(otherDatabase, () => listNames(other, user));
      expect(await queriesOf(otherDatabase, () => me(other, user))).toBe(0);
    });

    it('refuses a token within 1 s of its logout on the other instance', async () => {
      const user = await signIn(server);
      await cached(otherDatabase, () => me(other, user));
      const logout = await server.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: user.headers,
      });
      expect(logout.statusCode).toBe(200);
      const took = await within(3_000, async () => (await me(other, user)).statusCode === 401);
      expect(took).toBeLessThan(BOUND_MS);
    });

    it('refuses the other tokens within 1 s of a password change on the other instance', async () => {
      const user = await signIn(server);
      const login = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      });
      const second = { headers: { authorization: `Bearer ${login.json().token}` } };
      await cached(otherDatabase, () => me(other, second));
      const changed = await server.app.inject({
        method: 'POST',
        url: '/api/auth/profile/change-password',
        headers: user.headers,
        payload: {
          currentPassword: user.password,
          newPassword: 'new battery 43',
          confirmNewPassword: 'new battery 43',
        },
      });
      expect(changed.statusCode).toBe(200);
      const took = await within(3_000, async () => (await me(other, second)).statusCode === 401);
      expect(took).toBeLessThan(BOUND_MS);
    });

    it('shows a product written on one instance in the other within 1 s', async () => {
      const user = await signIn(server);
      expect(await listNames(other, user)).toEqual([]);
      await cached(otherDatabase, () => listNames(other, user));
      await createProduct(server, user, { name: 'Lantern' });
      const took = await within(3_000, async () =>
        (await listNames(other, user)).includes('Lantern'),
      );
      expect(took).toBeLessThan(BOUND_MS);
    });

    it('shows an adjustment, an import and a bulk delete made on one instance in the other', async () => {
      const user = await signIn(server);
      const lamp = await createProduct(server, user, { name: 'Lamp', stock: '5' });
      const stockOf = async () =>
        (
          (
            await other.inject({ method: 'GET', url: '/api/products', headers: user.headers })
          ).json() as {
            products: { name: string; stock: number }[];
          }
        ).products.find((product) => product.name === 'Lamp')?.stock;
      await within(3_000, async () => (await stockOf()) === 5);
      await cached(otherDatabase, () => listNames(other, user));

      await adjustStock(server, user, lamp.id, { delta: 2 });
      expect(await within(3_000, async () => (await stockOf()) === 7)).toBeLessThan(BOUND_MS);

      await cached(otherDatabase, () => listNames(other, user));
      await importCsv(server, user, 'name,price,stock,description\nImported,1,1,d\n');
      const imported = async () => (await listNames(other, user)).includes('Imported');
      expect(await within(3_000, imported)).toBeLessThan(BOUND_MS);

      await cached(otherDatabase, () => listNames(other, user));
      await bulkDelete(server, user, { ids: [lamp.id] });
      const gone = async () => !(await listNames(other, user)).includes('Lamp');
      expect(await within(3_000, gone)).toBeLessThan(BOUND_MS);
    });
  });

  describe('one instance whose listening connection stalls or drops', () => {
    let server: TestServer;
    // Another process's writes, as plain SQL on a connection of its own (no listener of its own).
    let writer: pg.Client;
    beforeAll(async () => {
      server = await build({ manualClose: true });
      writer = new pg.Client({ connectionString: server.config.databaseUrl });
      await writer.connect();
    });
    afterAll(async () => {
      await writer?.end();
      await server?.close();
    });

    /** The backend process of this instance's listening connection. */
    async function listenerPid(): Promise<number> {
      const { rows } = await writer.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = $1 and application_name = $2`,
        [new URL(server.config.databaseUrl!).pathname.slice(1), LISTENER_APPLICATION_NAME],
      );
      expect(rows).toHaveLength(1);
      return rows[0]!.pid;
    }
    const rename = (user: SignedIn, name: string) =>
      writer.query('update users set name = $1 where email = $2', [name, user.email]);
    const nameSeen = async (user: SignedIn) =>
      ((await me(server.app, user)).json() as { user: { name: string } }).user.name;

    it("shows this instance's own writes on the very next request, before their notification", async () => {
      const user = await signIn(server);
      await createProduct(server, user, { name: 'Kettle' });
      await cached(server.database, () => listNames(server.app, user));
      // The notifications of what follows cannot arrive, yet the version is still given: only the
      // count of this process's own commits can make the next request read.
      const pid = await listenerPid();
      process.kill(pid, 'SIGSTOP');
      try {
        server.clock.advance(1000); // newest first needs distinct creation times
        await createProduct(server, user, { name: 'Teapot' });
        expect(server.database.contentVersion()).not.toBeNull();
        expect(await listNames(server.app, user)).toEqual(['Teapot', 'Kettle']);
        const logout = await server.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: user.headers,
        });
        expect(logout.statusCode).toBe(200);
        expect(server.database.contentVersion()).not.toBeNull();
        expect((await me(server.app, user)).statusCode).toBe(401);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    });

    it('reads the database until it is back, then caches again under new versions', async () => {
      const user = await signIn(server, 'Before');
      await cached(server.database, () => me(server.app, user));
      const before = server.database.contentVersion();
      expect(before).not.toBeNull();

      await writer.query('select pg_terminate_backend($1, 5000)', [await listenerPid()]);
      await rename(user, 'After'); // its notification reaches no listener of this instance
      expect(await nameSeen(user)).toBe('After');

      await within(5_000, async () => server.database.contentVersion() !== null);
      expect(server.database.contentVersion()).not.toBe(before);
      await cached(server.database, () => me(server.app, user));
    });

    it('stops trusting a listener that has gone silent: changes still show within 1 s', async () => {
      const user = await signIn(server, 'Before');
      await cached(server.database, () => me(server.app, user));
      // The listener's backend stops answering without closing its connection: a hung server or
      // a network that drops packets looks like this.
      const pid = await listenerPid();
      process.kill(pid, 'SIGSTOP');
      try {
        await rename(user, 'After');
        const took = await within(3_000, async () => (await nameSeen(user)) === 'After');
        expect(took).toBeLessThan(BOUND_MS);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await within(10_000, async () => server.database.contentVersion() !== null);
      await cached(server.database, () => me(server.app, user));
    });
  });
});

import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../../../src/server/app.js';
import { withAppSecret } from '../../../src/server/app-secret.js';
import { loadConfig } from '../../../src/server/config.js';
import {
  pruneBackups,
  restoreBackup,
  takeBackup,
} from '../../../src/server/infra/backup/backups.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import { M } from '../../../src/shared/messages.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build, type TestServer } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { atFileEnd } from '../support/file-end.js';
import { jpeg } from '../support/images.js';
import { adjustStock, createProduct } from '../support/products.js';
import { tempDir } from '../support/temp-dirs.js';
import { twoFactor } from '../accounts/two-factor/support.js';

/** Who may read a file: its permission bits. */
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

// The embedded database's backup: PostgreSQL has pg_dump (docs/operations.md).
describe.skipIf(process.env.TEST_DATABASE_URL)(
  'backup and restore of the embedded database',
  () => {
    let server: TestServer;
    let backups: string;
    let user: SignedIn;
    // In a hook: a suite skipped on this engine still runs its body, but none of its hooks.
    beforeAll(async () => {
      server = await build({ manualClose: true, env: { BACKUP_KEEP: '2' } });
      backups = await mkdtemp(path.join(tmpdir(), 'stockroom-backups-'));
      user = await signIn(server);
    });
    afterAll(() => rm(backups, { recursive: true, force: true }));

    const list = async (app: App = server.app) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/products?limit=100',
        headers: user.headers,
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { products: Product[] }).products;
    };
    const movements = async (app: App, id: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/products/${id}/movements`,
          headers: user.headers,
        })
      ).json() as unknown;
    const image = async (app: App, url: string) =>
      (await app.inject({ method: 'GET', url: new URL(url).pathname })).rawPayload;

    it('takes the daily backup as a job of the background runner, keeping the newest', async () => {
      const dir = server.config.backups.dir;
      await server.app.runner.runNow('backups');
      const first = await readdir(dir);
      expect(first).toHaveLength(1);
      // Not due again within the day; due once a day has passed.
      await server.app.runner.runNow('backups');
      expect(await readdir(dir)).toEqual(first);
      server.clock.advance(24 * 60 * 60 * 1000);
      await server.app.runner.runNow('backups');
      expect(await readdir(dir)).toHaveLength(2);
      server.clock.advance(24 * 60 * 60 * 1000);
      await server.app.runner.runNow('backups');
      const kept = await readdir(dir);
      expect(kept).toHaveLength(2);
      expect(kept).not.toContain(first[0]);
      await rm(dir, { recursive: true, force: true });
    });

    it('backs up under writes, and a wiped server restored finds everything as it was then', async () => {
      const before: Product[] = [];
      for (let i = 0; i < 3; i += 1) {
        const product = await createProduct(
          server,
          user,
          { name: `Kept ${i}` },
          { data: await jpeg() },
        );
        expect((await adjustStock(server, user, product.id, { delta: i + 1 })).statusCode).toBe(
          200,
        );
        before.push(product);
      }
      const listed = await list();
      const history = await Promise.all(before.map((product) => movements(server.app, product.id)));
      const pictures = await Promise.all(listed.map((product) => image(server.app, product.image)));

      // Writes go on while the backup runs: products with pictures, one after another.
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing && i < 200; i += 1) {
          await createProduct(server, user, { name: `During ${i}` }, { data: await jpeg(8, 8) });
        }
      })();
      const { dir, manifest } = await takeBackup({ dataDir: server.dataDir, into: backups });
      writing = false;
      await writer;
      expect(manifest.counts.products).toBeGreaterThanOrEqual(3);
      expect(manifest.counts.sessions).toBeGreaterThanOrEqual(1);
      expect(manifest.files.map((file) => file.name)).toContain('stockroom.db');

      // The disk is lost: the server stops, its data goes, the backup comes back.
      await server.app.close();
      await server.database.close();
      await rm(server.dataDir, { recursive: true, force: true });
      await restoreBackup(dir, server.dataDir);
      const database = await openDatabase(server.config);
      const restored = await buildApp({ config: server.config, database, clock: server.clock });
      // Once the file is done: the next test backs up what was restored.
      atFileEnd(async () => {
        await restored.close();
        await database.close();
        await rm(server.dataDir, { recursive: true, force: true });
      });

      // The session still signs in; the products are those the backup counted, each picture there.
      const after = await list(restored);
      expect(after.length).toBe(manifest.counts.products);
      for (const product of listed) {
        expect(after.find((each) => each.id === product.id)).toEqual(product);
      }
      for (const [index, product] of before.entries()) {
        expect(await movements(restored, product.id)).toEqual(history[index]);
      }
      for (const [index, product] of listed.entries()) {
        expect((await image(restored, product.image)).equals(pictures[index]!)).toBe(true);
      }
      for (const product of after) {
        expect(
          (await restored.inject({ method: 'GET', url: new URL(product.image).pathname }))
            .statusCode,
        ).toBe(200);
      }
    });

    it('leaves nothing in a backup beyond what its manifest lists', async () => {
      const into = await tempDir('stockroom-clean-');
      const { dir, manifest } = await takeBackup({ dataDir: server.dataDir, into });
      const listed = new Set(manifest.files.map((file) => file.name.split('/')[0]));
      expect((await readdir(dir)).sort()).toEqual([...listed, 'manifest.json'].sort());
    });

    it('removes unfinished backups a day old, not one that may still be written', async () => {
      const into = await tempDir('stockroom-prune-');
      const now = Date.parse('2026-01-03T12:00:00Z');
      const dead = 'stockroom-2026-01-02T03-00-00.000Z.partial';
      const running = 'stockroom-2026-01-03T11-00-00.000Z.partial';
      for (const name of [dead, running]) await mkdir(path.join(into, name));
      const { dir } = await takeBackup({
        dataDir: server.dataDir,
        into,
        now: new Date('2026-01-03T03:00:00Z'),
      });
      expect(await pruneBackups(into, 2, now)).toEqual([dead]);
      expect((await readdir(into)).sort()).toEqual([path.basename(dir), running].sort());
    });

    it('refuses a damaged backup and changes nothing; keeps the newest backups', async () => {
      const into = await mkdtemp(path.join(tmpdir(), 'stockroom-prune-'));
      onTestFinished(() => rm(into, { recursive: true, force: true }));
      const names = [];
      for (const day of ['2026-01-01', '2026-01-02', '2026-01-03']) {
        const { dir } = await takeBackup({
          dataDir: server.dataDir,
          into,
          now: new Date(`${day}T03:00:00Z`),
        });
        names.push(path.basename(dir));
      }
      expect(await pruneBackups(into, 2)).toEqual([names[0]]);
      expect((await readdir(into)).sort()).toEqual(names.slice(1));

      const damaged = path.join(into, names[2]!);
      await appendFile(path.join(damaged, 'stockroom.db'), 'x');
      const target = await mkdtemp(path.join(tmpdir(), 'stockroom-target-'));
      onTestFinished(() => rm(target, { recursive: true, force: true }));
      await expect(restoreBackup(damaged, target)).rejects.toThrow(/stockroom.db does not match/);
      expect(await readdir(target)).toEqual([]);
    });

    it('refuses to restore under a server that has the database open, changing nothing', async () => {
      const { dir } = await takeBackup({ dataDir: server.dataDir, into: backups });
      const target = await mkdtemp(path.join(tmpdir(), 'stockroom-target-'));
      onTestFinished(() => rm(target, { recursive: true, force: true }));
      await restoreBackup(dir, target);
      const file = path.join(target, 'stockroom.db');
      // A running server holds its connection open, idle between requests.
      const running = new Database(file);
      running.pragma('journal_mode = WAL');
      running.exec('create table still_here (x)');
      try {
        await expect(restoreBackup(dir, target)).rejects.toThrow(
          /open in a running server: stop it, then restore/,
        );
        expect(running.prepare('select count(*) as n from still_here').get()).toEqual({ n: 0 });
      } finally {
        running.close();
      }
      // Once it stops, the same restore goes through.
      await restoreBackup(dir, target);
      const reopened = new Database(file, { readonly: true });
      const tables = reopened.prepare("select name from sqlite_master where name = 'still_here'");
      expect(tables.all()).toEqual([]);
      reopened.close();
    });
  },
);

/**
 * A server started without APP_SECRET generates its secret into DATA_DIR/secret.key: the TOTP
 * secrets are sealed with it and the recovery codes hashed with it, so a backup without it would
 * lock every two-factor account out of a restored server.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('the secret a backup carries', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Blank: unset, so the server generates its secret into its DATA_DIR.
    server = await build({ env: { APP_SECRET: '' } });
  });

  const secretFile = () => path.join(server.dataDir, 'secret.key');

  it('holds the generated secret, for its owner only, and a new disk restored signs its two-factor accounts in', async () => {
    const generated = (await readFile(secretFile(), 'utf8')).trim();
    expect(generated).toBe(server.config.appSecret);
    const tf = twoFactor(server);
    const account = await tf.account();

    const into = await tempDir('stockroom-backups-');
    const { dir, manifest } = await takeBackup({
      dataDir: server.dataDir,
      into,
      appSecret: server.config.appSecret,
    });
    expect(manifest.files.map((file) => file.name)).toContain('secret.key');
    expect(await modeOf(path.join(dir, 'secret.key'))).toBe(0o600);

    // Another disk: an empty DATA_DIR, the server started as before (no APP_SECRET).
    const dataDir = path.join(await tempDir('stockroom-new-disk-'), 'data');
    await restoreBackup(dir, dataDir);
    expect(await modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
    const config = withAppSecret(
      loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://stockroom.test' }),
    );
    expect(config.appSecret).toBe(generated);
    const database = await openDatabase(config);
    const restored = await buildApp({ config, database, clock: server.clock });
    atFileEnd(async () => {
      await restored.close();
      await database.close();
    });
    const challenge = async () => {
      const res = await restored.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: account.email, password: account.password },
      });
      return (res.json() as { mfa: { challengeId: string } }).mfa.challengeId;
    };
    const byCode = await restored.inject({
      method: 'POST',
      url: '/api/auth/login/mfa',
      payload: { challengeId: await challenge(), code: account.app.code() },
    });
    expect(byCode.json()).toEqual({ message: M.loginDone, token: expect.any(String) });
    const byRecovery = await restored.inject({
      method: 'POST',
      url: '/api/auth/login/mfa',
      payload: { challengeId: await challenge(), recoveryCode: account.recoveryCodes[0] },
    });
    expect(byRecovery.statusCode).toBe(200);
  });

  it('holds no secret of a server given APP_SECRET, and `npm run backup` says to keep it', async () => {
    const into = await tempDir('stockroom-backups-');
    const other = 'an-app-secret-given-in-the-environment-32';
    const { manifest } = await takeBackup({ dataDir: server.dataDir, into, appSecret: other });
    expect(manifest.files.map((file) => file.name)).not.toContain('secret.key');

    const backup = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', into], {
        env: { PATH: process.env.PATH, DATA_DIR: server.dataDir, ...env },
      });
    const given = await backup({ APP_SECRET: other });
    expect(given.stdout).toMatch(/APP_SECRET/);
    expect(given.stdout).not.toContain(other);
    const generated = await backup({});
    expect(generated.stdout).toMatch(/secret\.key/);
    expect(generated.stdout).not.toContain(server.config.appSecret);
  });
});

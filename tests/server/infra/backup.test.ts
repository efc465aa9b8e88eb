import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp, type App } from '../../../src/server/app.js';
import {
  pruneBackups,
  restoreBackup,
  takeBackup,
} from '../../../src/server/infra/backup/backups.js';
import { openDatabase } from '../../../src/server/infra/db/open.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { build, type TestServer } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { atFileEnd } from '../support/file-end.js';
import { jpeg } from '../support/images.js';
import { adjustStock, createProduct } from '../support/products.js';

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
  },
);

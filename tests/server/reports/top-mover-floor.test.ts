import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ActivityResponse } from '../../../src/shared/schemas/activity.js';
import { bulkLoad } from '../../../src/server/features/products/import-writes.js';
import { MoverWindows } from '../../../src/server/features/reports/windows.js';
import { build } from '../support/build.js';
import { SQLITE_FILE } from '../support/database-template.js';
import { api, member } from '../catalogues/support.js';
import { readRaw, topMovers } from './recompute.js';

const PRODUCTS = 1_200;
const WINDOWS = [30, 90, 365] as const;
const PAGE = 4096;
/** The most windows left marked after a report (reports/windows.ts). */
const MARKED_MAX = 800;

/**
 * The top movers' index holds the windows at or above their catalogue's floor alone (migration
 * 048): a stock change of a product far from the top writes none of its pages, and the report
 * still answers what the movements say as products pass the floor and leave the top.
 */
describe("the top movers' floor", async () => {
  const server = await build();
  const { db, dialect } = server.database;
  const owner = await member(server, 'Ada');
  const base = `/api/catalogues/${owner.id}`;
  /** Products created now, each with its stock as its one movement: 1 to 97 units moved. */
  const loadMovers = (catalogueId: string, count: number, name: string) =>
    bulkLoad(
      server.database,
      catalogueId,
      Array.from({ length: count }, (_, i) => ({
        name: `${name} ${i}`,
        description: 'Moved',
        priceCents: 100,
        stock: ((i * 7) % 97) + 1,
        image: null,
        createdAt: server.clock.now(),
      })),
      'create',
    );
  await loadMovers(owner.id, PRODUCTS, 'Mover');

  const report = async (days: number, limit = 100) => {
    const res = await api(
      server,
      owner,
      'GET',
      `${base}/reports/top-movers?days=${days}&limit=${limit}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as unknown;
  };
  const recomputed = async (days: number, limit = 100) =>
    topMovers(await readRaw(db, owner.id), server.clock.now(), days, limit);
  const floors = async (catalogueId = owner.id) =>
    new Map(
      (
        await db
          .selectFrom('window_starts')
          .select(['days', 'top_floor'])
          .where('catalogue_id', '=', catalogueId)
          .execute()
      ).map((row) => [Number(row.days), Number(row.top_floor)]),
    );
  const marked = async (days: number) =>
    Number(
      (
        await db
          .selectFrom('product_windows')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('catalogue_id', '=', owner.id)
          .where('days', '=', days)
          .where('top', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A window of the owner's products with this `moved` or `top`. */
  const aWindow = async (column: 'moved' | 'top', value: number) =>
    db
      .selectFrom('product_windows')
      .select('product_id')
      .where('catalogue_id', '=', owner.id)
      .where(column, '=', value)
      .limit(1)
      .executeTakeFirstOrThrow();
  /** Deletes one of the member's products: the address that undoes it. */
  const deleteProduct = async (who: typeof owner, productId: string) => {
    const at = `/api/catalogues/${who.id}`;
    const deleted = await api(server, who, 'DELETE', `${at}/products/${productId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const entries = await api(server, who, 'GET', `${at}/activity?kind=product.deleted&limit=1`);
    return `${at}/activity/${(entries.json() as ActivityResponse).entries[0]!.id}/undo`;
  };
  const moveStock = (productId: string, delta: number) =>
    api(server, owner, 'POST', `${base}/products/${productId}/stock`, { delta });

  /** The pages of product_windows' indexes but its key, as the file holds them once checkpointed. */
  const indexPages = () => {
    const raw = new SQLite(path.join(server.dataDir, SQLITE_FILE));
    try {
      raw.pragma('wal_checkpoint(TRUNCATE)');
      const pages = raw
        .prepare(
          `select name, pageno from dbstat where name in (select name from sqlite_master
            where type = 'index' and tbl_name = 'product_windows'
            and name not like 'sqlite_autoindex%')`,
        )
        .all() as { name: string; pageno: number }[];
      const file = readFileSync(path.join(server.dataDir, SQLITE_FILE));
      return new Map(
        pages.map(({ name, pageno }) => [
          `${name} ${pageno}`,
          file.subarray((pageno - 1) * PAGE, pageno * PAGE).toString('base64'),
        ]),
      );
    } finally {
      raw.close();
    }
  };

  // SQLite raises the floor as windows are marked: a catalogue whose report was never read.
  it.runIf(dialect === 'sqlite')('keeps a few hundred windows marked as they move', async () => {
    for (const days of WINDOWS) expect(await marked(days)).toBeLessThanOrEqual(MARKED_MAX);
    expect([...(await floors()).values()].every((floor) => floor > 0)).toBe(true);
  });

  it('keeps a few hundred windows marked once read', async () => {
    for (const days of WINDOWS) expect(await report(days)).toEqual(await recomputed(days));
    const floor = await floors();
    for (const days of WINDOWS) {
      expect(floor.get(days)).toBeGreaterThan(0);
      expect(await marked(days)).toBeLessThanOrEqual(MARKED_MAX);
    }
  });

  it('writes no page of its indexes for a stock change below the floor', async () => {
    const quiet = await aWindow('moved', 1);
    const before = dialect === 'sqlite' ? indexPages() : undefined;
    const counted = await Promise.all(WINDOWS.map(marked));
    const res = await moveStock(quiet.product_id, 2);
    expect(res.statusCode, res.body).toBe(200);
    expect(await Promise.all(WINDOWS.map(marked))).toEqual(counted);
    const moved = await db
      .selectFrom('product_windows')
      .select(['moved', 'top'])
      .where('product_id', '=', quiet.product_id)
      .execute();
    expect(moved.map((row) => [Number(row.moved), Number(row.top)])).toEqual(
      WINDOWS.map(() => [3, 0]),
    );
    if (before) {
      const after = indexPages();
      const changed = [...before].filter(([page, bytes]) => after.get(page) !== bytes);
      expect(changed.map(([page]) => page)).toEqual([]);
    }
  });

  it('answers as the movements say when a window passes the floor', async () => {
    const quiet = await aWindow('top', 0);
    const res = await moveStock(quiet.product_id, 500);
    expect(res.statusCode, res.body).toBe(200);
    for (const days of WINDOWS) {
      const answer = (await report(days)) as { products: { id: string }[] };
      expect(answer.products[0]!.id).toBe(quiet.product_id);
      expect(answer).toEqual(await recomputed(days));
    }
  });

  it('lowers the floor when the marked leave the top', async () => {
    const before = await floors();
    // All but 50 of the marked go: fewer than a report of 100 shows are left above the floor.
    const leaving = await db
      .selectFrom('product_windows')
      .select('product_id')
      .where('catalogue_id', '=', owner.id)
      .where('days', '=', 30)
      .orderBy('moved', 'desc')
      .orderBy('product_id')
      .limit((await marked(30)) - 50)
      .execute();
    const ids = leaving.map((row) => row.product_id);
    for (let i = 0; i < ids.length; i += 100) {
      const res = await api(server, owner, 'POST', `${base}/products/bulk-delete`, {
        ids: ids.slice(i, i + 100),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const days of WINDOWS) {
      expect(await report(days)).toEqual(await recomputed(days));
      expect(await report(days, 7)).toEqual(await recomputed(days, 7));
    }
    const after = await floors();
    for (const days of WINDOWS) expect(after.get(days)).toBeLessThan(before.get(days)!);
  });

  // A lowering finds what moved while it read the window by the movements' ids, which an undone
  // delete's movements may keep: the undo marks the product's windows itself, and the mark lasts
  // below the floor.
  it('marks the windows of a product an undo brings back, whatever the floor', async () => {
    const { product_id: id } = await aWindow('moved', 1);
    const windowsOf = async () =>
      (
        await db
          .selectFrom('product_windows')
          .select(['days', 'top'])
          .where('product_id', '=', id)
          .orderBy('days')
          .execute()
      ).map((row) => [Number(row.days), Number(row.top)]);
    expect(await windowsOf()).toEqual(WINDOWS.map((days) => [days, 0]));
    const undo = await deleteProduct(owner, id);
    const undone = await api(server, owner, 'POST', undo);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await windowsOf()).toEqual(WINDOWS.map((days) => [days, 1]));
    for (const days of WINDOWS) expect(await report(days)).toEqual(await recomputed(days));
  });

  /**
   * A floor above every 30-day window of the catalogue: none of the marked is at it, so its report
   * lowers it. The report's address.
   */
  const floorAboveAll = async (catalogueId: string) => {
    await db
      .updateTable('window_starts')
      .set({ top_floor: 1_000_000 })
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', 30)
      .execute();
    return `/api/catalogues/${catalogueId}/reports/top-movers?days=30&limit=100`;
  };
  /** The report answers as the movements say, this product first. */
  const expectFirst = async (who: typeof owner, url: string, productId: string) => {
    const answer = (await api(server, who, 'GET', url)).json() as { products: { id: string }[] };
    expect(answer.products[0]!.id).toBe(productId);
    expect(answer).toEqual(topMovers(await readRaw(db, who.id), server.clock.now(), 30, 100));
  };

  // The whole window is read a chunk a turn: other writers go on meanwhile (PostgreSQL's do not
  // wait for a reader; SQLite's file has one writer).
  it.runIf(dialect === 'sqlite')(
    'lowers the floor without holding the writer while it reads the window',
    async () => {
      const other = await member(server, 'Bo');
      // Windows enough for several chunks of the lowering's read.
      await loadMovers(other.id, 12_000, 'Big');
      const [first] = await db
        .selectFrom('product_windows')
        .select('product_id')
        .where('catalogue_id', '=', other.id)
        .where('days', '=', 30)
        .where('moved', '<', 10)
        .orderBy('product_id')
        .limit(1)
        .execute();
      const url = await floorAboveAll(other.id);
      const raw = new SQLite(path.join(server.dataDir, SQLITE_FILE), { timeout: 0 });
      let held = 0;
      let moved: Promise<unknown> | undefined;
      try {
        let done = false;
        const reading = api(server, other, 'GET', url).finally(() => (done = true));
        for (let turn = 0; !done; turn += 1) {
          try {
            raw.exec('begin immediate');
            raw.exec('rollback');
          } catch {
            held += 1;
          }
          // A product whose window was read early moves past every other while the rest is read.
          if (turn === 5) {
            moved = api(
              server,
              other,
              'POST',
              `/api/catalogues/${other.id}/products/${first!.product_id}/stock`,
              {
                delta: 5_000,
              },
            );
          }
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect((await reading).statusCode).toBe(200);
      } finally {
        raw.close();
      }
      expect(((await moved) as { statusCode: number }).statusCode).toBe(200);
      // The short transaction that writes the floor, at most.
      expect(held).toBeLessThanOrEqual(1);
      await expectFirst(other, url, first!.product_id);
    },
    120_000,
  );

  // An undo that brings a top mover back while a lowering reads the window (SQLite): its movements
  // keep ids below those the lowering asks, and its mark must outlast the old, higher floor. The
  // undo commits between the lowering's read and its transaction, its two steps.
  it.runIf(dialect === 'sqlite')(
    'counts a top mover an undo brings back while the floor is lowered',
    async () => {
      const other = await member(server, 'Cy');
      await loadMovers(other.id, 12_000, 'Race');
      const base2 = `/api/catalogues/${other.id}`;
      const windowAt = (direction: 'asc' | 'desc') =>
        db
          .selectFrom('product_windows')
          .select('product_id')
          .where('catalogue_id', '=', other.id)
          .where('days', '=', 30)
          .orderBy('product_id', direction)
          .limit(1)
          .executeTakeFirstOrThrow();
      const { product_id: first } = await windowAt('asc');
      const big = await api(server, other, 'POST', `${base2}/products/${first}/stock`, {
        delta: 5_000,
      });
      expect(big.statusCode, big.body).toBe(200);
      // A later movement of another product: the restored movements' ids stay below it.
      const { product_id: later } = await windowAt('desc');
      const after = await api(server, other, 'POST', `${base2}/products/${later}/stock`, {
        delta: 1,
      });
      expect(after.statusCode, after.body).toBe(200);
      const undo = await deleteProduct(other, first);
      const url = await floorAboveAll(other.id);
      // The lowering's two steps, the undo committed between them.
      const windows = new MoverWindows(db, dialect);
      const lowering = await windows.readLowering(other.id, 30);
      expect(lowering?.atOrAbove).not.toContain(first);
      const undone = await api(server, other, 'POST', undo);
      expect(undone.statusCode, undone.body).toBe(200);
      await windows.applyLowering(lowering!);
      // Applied: the undo's mark changed neither the floor nor the start.
      expect((await floors(other.id)).get(30)).toBe(lowering!.floor);
      await expectFirst(other, url, first);
    },
    120_000,
  );
});

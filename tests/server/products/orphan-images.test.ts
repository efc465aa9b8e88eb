import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ProductImages } from '../../../src/server/features/products/product-images.js';
import {
  ORPHAN_GRACE_MS,
  sweepOrphanImages,
} from '../../../src/server/features/products/orphan-images.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { build } from '../support/build.js';
import { jpeg } from '../support/images.js';
import { createProduct, imageFiles } from '../support/products.js';
import { signIn } from '../support/accounts.js';

const keyOf = (url: string) => ProductImages.keyOf(url.split('/').at(-1)!)!;

describe('the sweep of image files no product refers to', async () => {
  const server = await build();
  const user = await signIn(server);
  const { images } = server.app;
  const repository = new ProductRepository(server.database.db, server.database.dialect);
  const root = path.join(server.dataDir, 'images');
  const pathOf = (name: string) => path.join(root, name.slice(0, 2), name);
  /** Makes a stored file look as if it was written `ms` ago. */
  const age = async (name: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    await utimes(pathOf(name), then, then);
  };

  it('removes old orphans and unfinished writes, and keeps what products use and what is new', async () => {
    const kept = await createProduct(server, user, {}, { data: await jpeg() });
    const keptKey = keyOf(kept.image);
    // What a crash between writing an upload's files and committing its row leaves behind.
    const orphan = 'ab'.repeat(16);
    await images.put(`${orphan}.webp`, Buffer.from('main'));
    await images.put(`${orphan}-thumb.webp`, Buffer.from('thumb'));
    // What a crash in the middle of a write leaves behind.
    const unfinished = `${'cd'.repeat(16)}.webp.0123456789ab.tmp`;
    await mkdir(path.dirname(pathOf(unfinished)), { recursive: true });
    await writeFile(pathOf(unfinished), 'half');
    // An upload still in flight: its row is not committed yet, but its files are young.
    const inFlight = 'ef'.repeat(16);
    await images.put(`${inFlight}.webp`, Buffer.from('new'));

    for (const name of [
      `${keptKey}.webp`,
      `${keptKey}-thumb.webp`,
      `${orphan}.webp`,
      `${orphan}-thumb.webp`,
      unfinished,
    ]) {
      await age(name, ORPHAN_GRACE_MS + 1000);
    }

    const removed = await sweepOrphanImages(images, repository, Date.now());

    expect(removed.sort()).toEqual([`${orphan}-thumb.webp`, `${orphan}.webp`, unfinished].sort());
    expect((await imageFiles(server)).sort()).toEqual(
      [`${keptKey}-thumb.webp`, `${keptKey}.webp`, `${inFlight}.webp`].sort(),
    );
    const res = await server.app.inject({ method: 'GET', url: new URL(kept.image).pathname });
    expect(res.statusCode).toBe(200);
  });

  it('checks a large store in batches', async () => {
    const keys = Array.from({ length: 450 }, (_, i) => i.toString(16).padStart(32, '0'));
    for (const key of keys) {
      await images.put(`${key}.webp`, Buffer.from('x'));
      await age(`${key}.webp`, ORPHAN_GRACE_MS * 2);
    }
    const removed = await sweepOrphanImages(images, repository, Date.now());
    expect(removed).toHaveLength(450);
  });

  // Products without a picture, most of a large catalogue's, have no entry to keep: a stock
  // change on PostgreSQL writes a new entry in every index that holds its product's row.
  it('reads the keys from an index of the products that have one, and of no others', async () => {
    await createProduct(server, user, { name: 'No picture' });
    const { db, dialect } = server.database;
    const { pictured } = await db
      .selectFrom('products')
      .select(sql<number>`count(image_key)`.as('pictured'))
      .executeTakeFirstOrThrow();
    const { count } = await db
      .selectFrom('products')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(pictured)).toBeGreaterThan(0);
    expect(Number(pictured)).toBeLessThan(Number(count));
    const lookup = db
      .selectFrom('products')
      .select('image_key')
      .where('image_key', 'in', ['a'.repeat(32), 'b'.repeat(32)])
      .compile();
    if (dialect === 'sqlite') {
      const entries = await sql<{ n: number }>`select sum(ncell) as n from dbstat
        where name = 'products_image_key_pictured'`.execute(db);
      expect(Number(entries.rows[0]?.n)).toBe(Number(pictured));
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${lookup.sql}`, [...lookup.parameters]),
      );
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(
        /INDEX products_image_key_pictured\b/,
      );
    } else {
      // Analyzed whole (a small table), a partial index's count of its tuples is exact.
      await sql`analyze products`.execute(db);
      const entries = await sql<{ n: number }>`select reltuples as n from pg_class
        where relname = 'products_image_key_pictured'`.execute(db);
      expect(Number(entries.rows[0]?.n)).toBe(Number(pictured));
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${lookup.sql}`, [...lookup.parameters]),
        );
      });
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
        /products_image_key_pictured\b/,
      );
    }
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { M } from '../../../src/shared/messages.js';
import { ProductImages } from '../../../src/server/features/products/product-images.js';
import { S3ImageStorage } from '../../../src/server/infra/images/s3-storage.js';
import {
  ORPHAN_GRACE_MS,
  sweepOrphanImages,
} from '../../../src/server/features/products/orphan-images.js';
import { ProductRepository } from '../../../src/server/features/products/repository.js';
import { TestS3Server } from '../../support/s3.js';
import { build } from '../support/build.js';
import { jpeg, png } from '../support/images.js';
import {
  createProduct,
  fetchImage,
  imageFiles,
  patchProduct,
  postProduct,
  productCount,
  validFields,
  deleteProduct,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

const keyOf = (url: string) => ProductImages.keyOf(url.split('/').at(-1)!)!;
const objectsOf = (key: string) => [`images/${key}-thumb.webp`, `images/${key}.webp`];

describe('product images kept in an S3 bucket', async () => {
  const s3 = await new TestS3Server().start();
  afterAll(() => s3.stop());
  const server = await build({
    images: new S3ImageStorage({ ...s3.options, publicUrl: 'http://stockroom.test' }),
  });
  const user = await signIn(server);
  const { images } = server.app;

  it('stores an upload in the bucket and serves it from the usual URL, cached for good', async () => {
    const product = await createProduct(server, user, {}, { data: await jpeg() });
    const key = keyOf(product.image);
    expect(product.image).toBe(`http://stockroom.test/api/images/${key}.webp`);
    expect(product.thumbnail).toBe(`http://stockroom.test/api/images/${key}-thumb.webp`);
    expect(await s3.keys()).toEqual(objectsOf(key));
    expect(await imageFiles(server)).toEqual([]);

    for (const url of [product.image, product.thumbnail]) {
      const stored = await s3.object(`images/${url.split('/').at(-1)}`);
      const res = await fetchImage(server, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['content-length']).toBe(String(stored.body.length));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload).toEqual(stored.body);
    }
    const head = await server.app.inject({ method: 'HEAD', url: new URL(product.image).pathname });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
  });

  it('answers 404, not cached, for a file the bucket does not have', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/images/${'0'.repeat(32)}.webp`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it('keeps the old objects when the image is replaced, and on delete (both can be undone)', async () => {
    const product = await createProduct(server, user, { name: 'Replaced' }, { data: await jpeg() });
    const oldKey = keyOf(product.image);
    const before = await s3.keys();
    expect(before).toEqual(expect.arrayContaining(objectsOf(oldKey)));

    const res = await patchProduct(server, user, product.id, {}, { data: await png() });
    expect(res.statusCode).toBe(200);
    const newKey = keyOf(res.json().product.image);
    expect(newKey).not.toBe(oldKey);
    const after = await s3.keys();
    // Kept while the edit can be undone; the orphan sweep removes them after 7 days.
    expect(after).toEqual([...before, ...objectsOf(newKey)].sort());

    const deleted = await deleteProduct(server, user, product.id);
    expect(deleted.statusCode).toBe(200);
    expect(await s3.keys()).toEqual(after);
  });

  it('sweeps old orphan objects, keeping what products use, young uploads and foreign objects', async () => {
    const repository = new ProductRepository(server.database.db, server.database.dialect);
    const kept = await createProduct(server, user, { name: 'Kept' }, { data: await jpeg() });
    // What a crash between writing an upload's files and committing its row leaves behind.
    const orphan = 'ab'.repeat(16);
    await images.put(`${orphan}.webp`, Buffer.from('main'));
    await images.put(`${orphan}-thumb.webp`, Buffer.from('thumb'));
    // Not the app's: outside its folder, or not a name it gives.
    await s3.putObject(`elsewhere/${'cd'.repeat(16)}.webp`, 'foreign');
    await s3.putObject('images/readme.txt', 'foreign');

    // S3 keeps write times to the second: what is written after this pause is younger than the
    // split for sure, and what was written before is not.
    const split = Date.now();
    await sleep(1100);
    const inFlight = 'ef'.repeat(16);
    await images.put(`${inFlight}.webp`, Buffer.from('new'));
    const before = await s3.keys();

    const removed = await sweepOrphanImages(images, repository, split + ORPHAN_GRACE_MS);

    // Besides the orphans: pictures of products deleted by earlier tests, whose deletes (dated by
    // the test clock, months before this sweep's time) can no longer be undone.
    const orphans = removed.filter((name) => name.startsWith(orphan));
    expect(orphans.sort()).toEqual([`${orphan}-thumb.webp`, `${orphan}.webp`]);
    const gone = new Set(removed.map((name) => `images/${name}`));
    expect(await s3.keys()).toEqual(before.filter((key) => !gone.has(key)));
    expect(await s3.keys()).toEqual(
      expect.arrayContaining([
        ...objectsOf(keyOf(kept.image)),
        `images/${inFlight}.webp`,
        'images/readme.txt',
        `elsewhere/${'cd'.repeat(16)}.webp`,
      ]),
    );
    expect((await fetchImage(server, kept.image)).statusCode).toBe(200);
  });

  it('answers 503 while the bucket cannot be reached', async () => {
    const product = await createProduct(server, user, { name: 'Outage' }, { data: await jpeg() });
    await s3.stop();
    const res = await fetchImage(server, product.image);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({ message: M.serviceUnavailable });
  });
});

describe('a bucket the service refuses', async () => {
  const s3 = await new TestS3Server().start();
  afterAll(() => s3.stop());
  const server = await build({
    images: new S3ImageStorage({
      ...s3.options,
      bucket: 'no-such-bucket',
      publicUrl: 'http://stockroom.test',
    }),
  });
  const user = await signIn(server);

  it('is a server error, never the service’s own 4xx passed on to the client', async () => {
    const read = await server.app.inject({
      method: 'GET',
      url: `/api/images/${'0'.repeat(32)}.webp`,
    });
    expect(read.statusCode).toBe(500);
    expect(read.json()).toEqual({ message: M.internal });

    const upload = await postProduct(server, user, validFields, { data: await jpeg() });
    expect(upload.statusCode).toBe(500);
    expect(upload.json()).toEqual({ message: M.internal });
    expect(await productCount(server)).toBe(0);
  });
});

import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS } from '../../src/server/features/products/orphan-images.js';
import { TestS3Server } from '../support/s3.js';
import { freshPostgresDatabase } from './support/build.js';
import { jpeg } from './support/images.js';
import {
  freePort,
  sessionInDatabaseOf,
  startEntry,
  waitForOk,
  type Entry,
} from './support/processes.js';
import { validFields } from './support/products.js';
import { tempDir } from './support/temp-dirs.js';

const SECRET = 's'.repeat(32);

describe('the real server entry with images in S3', { timeout: 60_000 }, () => {
  it('stores an upload in the bucket and serves it back', async () => {
    const s3 = await new TestS3Server().start();
    const dataDir = await tempDir('stockroom-config-');
    const postgres = process.env.TEST_DATABASE_URL
      ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const entry = startEntry({
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      APP_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
    });
    try {
      await waitForOk(`${origin}/api/ready`, 45_000, entry);
      const token = await sessionInDatabaseOf(
        { dataDir, databaseUrl: postgres?.url },
        's3@example.com',
      );

      const form = new FormData();
      for (const [name, value] of Object.entries(validFields)) form.append(name, value);
      form.append(
        'image',
        new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }),
        'photo.jpg',
      );
      const created = await fetch(`${origin}/api/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(created.status).toBe(201);
      const { product } = (await created.json()) as { product: { image: string } };
      const name = product.image.split('/').at(-1)!;
      expect(product.image).toBe(`${origin}/api/images/${name}`);
      expect(await s3.keys()).toEqual(expect.arrayContaining([`images/${name}`]));
      expect(existsSync(path.join(dataDir, 'images'))).toBe(false);

      const image = await fetch(product.image);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await image.arrayBuffer())).toEqual(
        (await s3.object(`images/${name}`)).body,
      );

      entry.child.kill('SIGTERM');
      expect(await entry.exited).toBe(0);
    } finally {
      if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
      await entry.exited;
      await postgres?.drop();
      await s3.stop();
    }
  });
});

// Each test starts Node with tsx: seconds on a busy machine.
describe('the real server entry', { timeout: 60_000 }, () => {
  const running: Entry[] = [];
  afterAll(() => {
    for (const entry of running) if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
  });

  it('refuses a bad PORT with exit code 1 and one line naming PORT', async () => {
    const entry = startEntry({ PORT: '99999', DATA_DIR: await tempDir('stockroom-config-') });
    running.push(entry);
    expect(await entry.exited).toBe(1);
    const lines = entry.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
    expect(lines[0]).not.toMatch(/\bat\b.*\.ts:\d+/);
  });

  it('starts, answers /api/health, sweeps orphan image files, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = await tempDir('stockroom-config-');
    // An image file from before a crash, older than the sweep's grace period, in no product.
    const orphan = path.join(dataDir, 'images', 'ab', `${'ab'.repeat(16)}.webp`);
    await mkdir(path.dirname(orphan), { recursive: true });
    await writeFile(orphan, 'orphan');
    const longAgo = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    await utimes(orphan, longAgo, longAgo);
    const entry = startEntry({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    running.push(entry);
    await waitForOk(`http://127.0.0.1:${port}/api/health`, 45_000, entry);
    await expect.poll(() => existsSync(orphan), { timeout: 10_000 }).toBe(false);
    entry.child.kill('SIGTERM');
    expect(await entry.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });
});

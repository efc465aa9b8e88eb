import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageStorage } from '../../../../src/server/infra/images/create-storage.js';
import { S3ImageStorage } from '../../../../src/server/infra/images/s3-storage.js';
import {
  LocalImageStorage,
  type ImageStorage,
} from '../../../../src/server/infra/images/storage.js';
import { TestS3Server } from '../../../support/s3.js';
import { NAMES_NEVER_OPENED } from '../../support/images.js';
import { filesUnder } from '../../support/products.js';

const PUBLIC_URL = 'https://shop.example';
const name = '0123456789abcdef0123456789abcdef.webp';
const thumb = '0123456789abcdef0123456789abcdef-thumb.webp';

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listed(storage: ImageStorage) {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

describe('S3 image storage', () => {
  const s3 = new TestS3Server();
  let storage: S3ImageStorage;
  beforeAll(async () => {
    await s3.start();
    storage = new S3ImageStorage({ ...s3.options, publicUrl: PUBLIC_URL });
  });
  afterAll(() => s3.stop());

  it('stores a file as a WebP object under images/, the last write winning whole', async () => {
    await storage.put(name, Buffer.from('first'));
    await storage.put(name, Buffer.from('second'));
    expect(await s3.keys()).toEqual([`images/${name}`]);
    expect(await s3.object(`images/${name}`)).toEqual({
      body: Buffer.from('second'),
      contentType: 'image/webp',
    });
  });

  it('builds the same URLs as local storage: served by the app', () => {
    expect(storage.url(name)).toBe(`${PUBLIC_URL}/api/images/${name}`);
  });

  it('opens a stored file as a stream with its size', async () => {
    const file = await storage.open(name);
    expect(file?.size).toBe(6);
    expect(await read(file!.stream)).toEqual(Buffer.from('second'));
  });

  it('opens nothing for a missing file or a name it never gives', async () => {
    await s3.putObject('images/x.png', 'not ours');
    for (const other of NAMES_NEVER_OPENED) {
      expect(await storage.open(other)).toBeUndefined();
    }
  });

  it('refuses to write or delete a name it never gives', async () => {
    for (const bad of ['../../escape.webp', 'a/b.webp', 'x.png', '']) {
      await expect(storage.put(bad, Buffer.from('x'))).rejects.toThrow(/Invalid image file name/);
      await expect(storage.delete(bad)).rejects.toThrow(/Invalid image file name/);
    }
    expect(await s3.keys()).toEqual([`images/${name}`, 'images/x.png']);
  });

  it('lists its own files with their write times, and nothing else in the bucket', async () => {
    const before = Date.now();
    await storage.put(thumb, Buffer.from('thumb'));
    await s3.putObject('notes.webp', 'outside the folder');
    await s3.putObject(`images/nested/${name}`, 'in a sub-folder');
    await s3.putObject('images/readme.txt', 'not an image name');

    const files = await listed(storage);
    expect(files.map((file) => file.name)).toEqual([thumb, name]);
    // S3 keeps write times to the second.
    const written = files.find((file) => file.name === thumb)!.modifiedAt;
    expect(written).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(written).toBeLessThanOrEqual(Date.now());
  });

  it('lists page after page, within its own folder', async () => {
    const paged = new S3ImageStorage({
      ...s3.options,
      publicUrl: PUBLIC_URL,
      prefix: 'paged/',
      listPageSize: 10,
    });
    const many = Array.from({ length: 25 }, (_, i) => `${'f'.repeat(30)}${i + 10}.webp`);
    await Promise.all(many.map((file) => paged.put(file, Buffer.from('x'))));
    expect((await listed(paged)).map((file) => file.name)).toEqual(many);
    expect((await listed(storage)).map((file) => file.name)).toEqual([thumb, name]);
  });

  it('deletes files, and a missing one is no error', async () => {
    await storage.delete(name);
    await storage.delete(name);
    await storage.delete(thumb);
    expect(await s3.keys('images/')).toEqual([
      `images/nested/${name}`,
      'images/readme.txt',
      'images/x.png',
    ]);
    expect(await storage.open(name)).toBeUndefined();
  });

  it('passes on every failure other than a missing file', async () => {
    const elsewhere = new S3ImageStorage({
      ...s3.options,
      bucket: 'no-such-bucket',
      publicUrl: PUBLIC_URL,
    });
    await expect(elsewhere.open(name)).rejects.toThrow(/bucket/i);
    await expect(elsewhere.put(name, Buffer.from('x'))).rejects.toThrow(/bucket/i);
    await expect(listed(elsewhere)).rejects.toThrow(/bucket/i);

    // s3rver checks the access key id (not the signature itself).
    const stranger = new S3ImageStorage({
      ...s3.options,
      accessKeyId: 'STRANGER',
      publicUrl: PUBLIC_URL,
    });
    await expect(stranger.open(name)).rejects.toThrow(/access key/i);
    await expect(stranger.delete(name)).rejects.toThrow(/access key/i);
  });

  it('gives up on a service that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as AddressInfo;
      const stalled = new S3ImageStorage({
        ...s3.options,
        endpoint: `http://127.0.0.1:${port}`,
        publicUrl: PUBLIC_URL,
        timeoutMs: 200,
      });
      await expect(stalled.open(name)).rejects.toThrow(/timed out/i);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe('choosing the image storage', () => {
  const s3 = new TestS3Server();
  let dataDir = '';
  beforeAll(async () => {
    await s3.start();
    dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-storage-'));
  });
  afterAll(async () => {
    await s3.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps files on local disk under DATA_DIR/images without a bucket', async () => {
    const storage = createImageStorage({ dataDir, publicUrl: PUBLIC_URL });
    expect(storage).toBeInstanceOf(LocalImageStorage);
    await storage.put(name, Buffer.from('local'));
    expect(await filesUnder(path.join(dataDir, 'images'))).toEqual([name]);
    expect(storage.url(name)).toBe(`${PUBLIC_URL}/api/images/${name}`);
    expect(await s3.keys()).toEqual([]);
  });

  it('uses the bucket when one is given, path style by default with an endpoint', async () => {
    const { bucket, accessKeyId, secretAccessKey } = s3.options;
    const storage = createImageStorage({
      dataDir,
      publicUrl: PUBLIC_URL,
      bucket,
      // A host name, not an IP address: the SDK would put the bucket in it unless told not to.
      endpoint: `http://localhost:${s3.port}`,
      accessKeyId,
      secretAccessKey,
    });
    expect(storage).toBeInstanceOf(S3ImageStorage);
    await storage.put(thumb, Buffer.from('remote'));
    expect(await s3.keys()).toEqual([`images/${thumb}`]);
    expect(storage.url(thumb)).toBe(`${PUBLIC_URL}/api/images/${thumb}`);
    expect(await filesUnder(path.join(dataDir, 'images'))).toEqual([name]);
  });

  it('refuses half a key pair rather than falling back to other credentials', () => {
    expect(() =>
      createImageStorage({
        dataDir,
        publicUrl: PUBLIC_URL,
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        accessKeyId: 'S3RVER',
      }),
    ).toThrow(/both/);
  });
});

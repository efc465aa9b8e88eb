import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalImageStorage } from '../../../../src/server/infra/images/storage.js';
import { NAMES_NEVER_OPENED } from '../../support/images.js';
import { filesUnder } from '../../support/products.js';

describe('local image storage', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'stockroom-storage-'));
  afterAll(() => rm(root, { recursive: true, force: true }));
  const storage = new LocalImageStorage(root, 'https://cdn.example/api/images');
  const name = '0123456789abcdef0123456789abcdef.webp';

  it('stores a file whole, under a sub-folder, with no temporary file left', async () => {
    await storage.put(name, Buffer.from('first'));
    await storage.put(name, Buffer.from('second'));
    expect(await readFile(path.join(root, '01', name), 'utf8')).toBe('second');
    expect(await filesUnder(root)).toEqual([name]);
  });

  it('builds absolute URLs from the public base', () => {
    expect(storage.url(name)).toBe(`https://cdn.example/api/images/${name}`);
  });

  it('opens a stored file with its size, and nothing for unknown or unsafe names', async () => {
    const file = await storage.open(name);
    expect(file?.size).toBe(6);
    file?.stream.destroy();
    for (const other of NAMES_NEVER_OPENED) {
      expect(await storage.open(other)).toBeUndefined();
    }
  });

  it('refuses to write or delete outside its folder', async () => {
    await expect(storage.put('../../escape.webp', Buffer.from('x'))).rejects.toThrow();
    await expect(storage.delete('../../escape.webp')).rejects.toThrow();
  });

  it('lists the files it made, unfinished temporaries included, and nothing else', async () => {
    const temporary = `${name}.0123456789ab.tmp`;
    await writeFile(path.join(root, '01', temporary), 'half');
    await writeFile(path.join(root, '01', 'notes.txt'), 'not ours');
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    expect(listed.map((file) => file.name).sort()).toEqual([name, temporary]);
    for (const file of listed) expect(file.modifiedAt).toBeGreaterThan(Date.now() - 60_000);

    await storage.delete(temporary);
    expect((await filesUnder(root)).sort()).toEqual([name, 'notes.txt']);
    await rm(path.join(root, '01', 'notes.txt'));
  });

  it('lists nothing before the first file', async () => {
    const empty = new LocalImageStorage(path.join(root, 'missing'), 'https://cdn.example');
    for await (const file of empty.list()) throw new Error(`listed ${file.name}`);
  });

  it('deletes files, and a missing one is no error', async () => {
    await storage.delete(name);
    await storage.delete(name);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('reports a file it cannot open, rather than calling it missing', async () => {
    // A symbolic link to itself: there is an entry, but opening it fails with ELOOP (root may
    // open any file whatever its mode, so a permission error cannot be staged here).
    const looping = 'abcdefabcdefabcdefabcdefabcdefab.webp';
    await mkdir(path.join(root, 'ab'), { recursive: true });
    await symlink(looping, path.join(root, 'ab', looping));
    await expect(storage.open(looping)).rejects.toMatchObject({ code: 'ELOOP' });
    await rm(path.join(root, 'ab', looping));
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalImageStorage } from '../../../src/server/infra/images/storage.js';
import { build, type TestServer } from '../support/build.js';
import { jpeg, png } from '../support/images.js';
import {
  createProduct,
  filesUnder,
  getProduct,
  patchProduct,
  postProduct,
  productCount,
  storedState,
  validFields,
  withPlaces,
} from '../support/products.js';
import { signIn } from '../support/accounts.js';

/** Makes the database refuse any product named "boom", on either engine. */
async function refuseBoom(server: TestServer) {
  const { db, dialect } = server.database;
  if (dialect === 'sqlite') {
    for (const event of ['insert', 'update']) {
      await sql
        .raw(
          `create trigger refuse_boom_${event} before ${event} on products when new.name = 'boom'
           begin select raise(abort, 'boom'); end`,
        )
        .execute(db);
    }
  } else {
    await sql`create function refuse_boom() returns trigger language plpgsql as $$
      begin if new.name = 'boom' then raise exception 'boom'; end if; return new; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_boom before insert or update on products
      for each row execute function refuse_boom()`.execute(db);
  }
}

describe('a write that fails after the files were stored', async () => {
  const server = await build();
  const user = await signIn(server);
  await refuseBoom(server);

  it('create: the new files are removed, no row is left', async () => {
    const before = await storedState(server);
    const res = await postProduct(
      server,
      user,
      { ...validFields, name: 'boom' },
      { data: await jpeg() },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong. Please try again.' });
    expect(await storedState(server)).toEqual(before);
  });

  it('update: the new files are removed, the old image stays', async () => {
    const product = await createProduct(server, user, {}, { data: await jpeg() });
    const before = await storedState(server);
    const res = await patchProduct(
      server,
      user,
      product.id,
      { name: 'boom' },
      { data: await png() },
    );
    expect(res.statusCode).toBe(500);
    expect(await storedState(server)).toEqual(before);
    expect((await getProduct(server, user, product.id)).json().product).toEqual(
      withPlaces(product),
    );
  });
});

/** Local storage whose second write of every upload (the thumbnail) fails. */
class FlakyStorage extends LocalImageStorage {
  override async put(name: string, data: Buffer) {
    if (name.endsWith('-thumb.webp')) throw new Error('disk full');
    return super.put(name, data);
  }
}

describe('a storage failure half-way through an upload', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'stockroom-flaky-'));
  afterAll(() => rm(root, { recursive: true, force: true }));
  const server = await build({
    images: new FlakyStorage(root, 'http://stockroom.test/api/images'),
  });
  const user = await signIn(server);

  it('leaves neither the first file nor a row', async () => {
    const res = await postProduct(server, user, validFields, { data: await jpeg() });
    expect(res.statusCode).toBe(500);
    expect(await productCount(server)).toBe(0);
    expect(await filesUnder(root)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { M, T } from '../../../src/shared/messages.js';
import { SI } from '../../../src/shared/schemas/locations/stock-import.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { multipart } from '../support/images.js';
import {
  adjustStock,
  allProducts,
  createProduct,
  csvText,
  getProduct,
} from '../support/products.js';

/** The CSV imports under an Idempotency-Key, as every other product write. */
describe('Idempotency-Key on the CSV imports', async () => {
  const server = await build();

  /** POST …/import (products, or `stock-by-location`) with a CSV file and maybe a key. */
  const send = async (
    who: SignedIn,
    key: string | undefined,
    csv: string,
    { path = '/api/products/import', query = '' } = {},
  ) => {
    const body = await multipart(
      {},
      { field: 'file', data: Buffer.from(csv), filename: 'file.csv', contentType: 'text/csv' },
    );
    return server.app.inject({
      method: 'POST',
      url: `${path}${query ? `?${query}` : ''}`,
      headers: {
        ...who.headers,
        ...body.headers,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: body.payload,
    });
  };
  const twoRows = csvText([
    ['name', 'price', 'stock', 'description'],
    ['Keyed one', '1.50', 3, 'First'],
    ['Keyed two', '2.50', 4, 'Second'],
  ]);
  const countOf = async (who: SignedIn) => (await allProducts(server, who)).length;
  const stockOf = async (who: SignedIn, id: string) =>
    (await getProduct(server, who, id)).json().product.stock as number;

  it('gives the first answer again and imports nothing more', async () => {
    const user = await signIn(server);
    const first = await send(user, 'imp-again', twoRows);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(T.imported(2));
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(user, 'imp-again', twoRows);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countOf(user)).toBe(2);
  });

  it('refuses the same key with another file or another query with 422', async () => {
    const user = await signIn(server);
    expect((await send(user, 'one-file', twoRows)).statusCode).toBe(200);
    const otherFile = twoRows.replace('Keyed two', 'Keyed three');
    for (const res of [
      await send(user, 'one-file', otherFile),
      await send(user, 'one-file', twoRows, { query: 'matches=copy' }),
      await send(user, 'one-file', twoRows, { query: 'preview=true' }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: M.idempotencyKeyReused });
    }
    expect(await countOf(user)).toBe(2);
  });

  it('refuses a malformed key with 400 before importing anything', async () => {
    const user = await signIn(server);
    for (const key of ['', 'k'.repeat(256), 'k'.repeat(300), 'clé']) {
      const res = await send(user, key, twoRows);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().message, JSON.stringify(key)).toBe(M.idempotencyKeyInvalid);
    }
    expect(await countOf(user)).toBe(0);
  });

  it('keeps neither a dry run nor a refused file under the key', async () => {
    const user = await signIn(server);
    const dry = await send(user, 'checked-first', twoRows, { query: 'dryRun=true' });
    expect(dry.statusCode).toBe(200);
    expect(dry.json().message).toBe(T.importChecked(2));
    const bad = await send(user, 'checked-first', twoRows.replace('1.50', 'abc'));
    expect(bad.statusCode).toBe(400);
    const real = await send(user, 'checked-first', twoRows);
    expect(real.statusCode, real.body).toBe(200);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
    expect(real.json().message).toBe(T.imported(2));
    // A dry run afterwards is checked again, not answered from the key.
    const dryAgain = await send(user, 'checked-first', twoRows, { query: 'dryRun=true' });
    expect(dryAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOf(user)).toBe(2);
  });

  it('gives a re-import its first answer again, leaving a later stock change alone', async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user, { stock: '5' });
    const csv = csvText([
      ['id', 'name', 'price', 'stock', 'description'],
      [product.id, 'Counted again', '3.00', 9, 'Updated by the file'],
    ]);
    const first = await send(user, 'reimport', csv);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: 0, updated: 1 });
    await adjustStock(server, user, product.id, { delta: 1 });
    const again = await send(user, 'reimport', csv);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await stockOf(user, product.id)).toBe(10);
  });

  it('gives a stock-by-location import its first answer again', async () => {
    const user = await signIn(server);
    const product = await createProduct(server, user, { stock: '5' });
    const csv = csvText([
      ['id', 'sku', 'barcode', 'name', 'location', 'quantity'],
      [product.id, '', '', '', 'Main', 7],
    ]);
    const path = '/api/products/stock-by-location/import';
    const first = await send(user, 'counted', csv, { path });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(SI.done(1, 0));
    await adjustStock(server, user, product.id, { delta: 1 });
    const again = await send(user, 'counted', csv, { path });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await stockOf(user, product.id)).toBe(8);

    const other = await send(user, 'counted', csv.replace(',7', ',6'), { path });
    expect(other.statusCode).toBe(422);
    const badKey = await send(user, 'k'.repeat(256), csv, { path });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toBe(M.idempotencyKeyInvalid);
    expect(await stockOf(user, product.id)).toBe(8);
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { jpeg, multipart } from '../support/images.js';
import {
  CATALOGUE_NOT_FOUND,
  createProductIn,
  fire,
  must,
  person,
  prepare,
  send,
  setMember,
  type Answer,
} from './catalogue-world.js';
import { catalogueWith } from './fixtures.js';

/**
 * What a catalogue leaves behind when it goes or someone leaves it: no image still served, no row
 * still pointing at it, no answer replayed to someone who is no longer a member, no stale list for
 * an owner whose personal catalogue others write to.
 */

const server = await build();
const owner = await person(server, 'Owner');

/** Rows of every table that names the catalogue. */
async function rowsOf(catalogueId: string) {
  const counts: Record<string, number> = {};
  for (const table of ['products', 'product_tags', 'stock_movements', 'catalogue_members']) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
      where catalogue_id = ${catalogueId}`.execute(server.database.db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

describe('a deleted catalogue', () => {
  it("takes its products' images with it: their URLs answer 404", async () => {
    const catalogueId = await catalogueWith(server, owner, 'Pictured', []);
    const body = await multipart(
      { name: 'Pictured lamp', price: '5', stock: '1', description: 'With a photo' },
      { data: await jpeg() },
    );
    const created = await server.app.inject({
      method: 'POST',
      url: `/api/catalogues/${catalogueId}/products`,
      headers: { ...owner.headers, ...body.headers },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const { image, thumbnail } = (
      created.json() as { product: { image: string; thumbnail: string } }
    ).product;
    const paths = [image, thumbnail].map((url) => new URL(url).pathname);
    for (const path of paths) {
      expect((await server.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    }
    await must(server, owner, { method: 'DELETE', url: `/api/catalogues/${catalogueId}` }, 200);
    for (const path of paths) {
      expect((await server.app.inject({ method: 'GET', url: path })).statusCode, path).toBe(404);
    }
    expect(await rowsOf(catalogueId)).toEqual({
      products: 0,
      product_tags: 0,
      stock_movements: 0,
      catalogue_members: 0,
    });
  });

  it('deleted while a member writes: every answer is done or 404, and nothing is left of it', async () => {
    for (let round = 0; round < 4; round++) {
      const editor = await person(server, `Busy editor ${round}`);
      const catalogueId = await catalogueWith(server, owner, `Doomed ${round}`, [
        [editor, 'editor'],
      ]);
      const product = await createProductIn(server, owner, catalogueId, { tags: 'red, blue' });
      const base = `/api/catalogues/${catalogueId}/products`;
      let deleted = false;
      const answers: Answer[] = [];
      const writer = async (worker: number) => {
        for (let n = 0; n < 40 && !(deleted && n > 30); n++) {
          const request =
            n % 2 === 0
              ? { method: 'POST' as const, url: `${base}/${product}/stock`, json: { delta: 1 } }
              : {
                  method: 'POST' as const,
                  url: base,
                  form: {
                    name: `Late ${round}-${worker}-${n}`,
                    price: '1',
                    stock: '1',
                    description: 'd',
                    tags: 'green',
                  },
                };
          answers.push(await fire(server, await prepare(editor, request)));
        }
      };
      const deleter = async () => {
        while (answers.filter((answer) => answer.status < 300).length < 3) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        const answer = await send(server, owner, {
          method: 'DELETE',
          url: `/api/catalogues/${catalogueId}`,
        });
        deleted = true;
        return answer;
      };
      const [gone] = await Promise.all([deleter(), writer(1), writer(2)]);
      expect(gone.status).toBe(200);
      // The race was run: writes were refused once the catalogue had gone.
      expect(answers.some((answer) => answer.status === 404)).toBe(true);
      const odd = answers.filter(
        (answer) =>
          answer.status >= 300 &&
          !(
            answer.status === 404 &&
            JSON.stringify(answer.body) === JSON.stringify(CATALOGUE_NOT_FOUND)
          ),
      );
      expect(odd.map((answer) => `${answer.status} ${answer.text.slice(0, 200)}`)).toEqual([]);
      expect(await rowsOf(catalogueId)).toEqual({
        products: 0,
        product_tags: 0,
        stock_movements: 0,
        catalogue_members: 0,
      });
    }
  });
});

describe('a member who left', () => {
  it('gets 404, not a replay, for a write sent again with its Idempotency-Key', async () => {
    const leaver = await person(server, 'Leaver');
    const catalogueId = await catalogueWith(server, owner, 'Replayed', [[leaver, 'editor']]);
    const request = {
      method: 'POST' as const,
      url: `/api/catalogues/${catalogueId}/products`,
      form: { name: 'Once', price: '1', stock: '1', description: 'd' },
      headers: { 'idempotency-key': 'sent-twice' },
    };
    await must(server, leaver, request, 201);
    await must(
      server,
      leaver,
      { method: 'DELETE', url: `/api/catalogues/${catalogueId}/members/${leaver.id}` },
      200,
    );
    const again = await send(server, leaver, request);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 404,
      body: CATALOGUE_NOT_FOUND,
    });
  });
});

describe('a personal catalogue others were let into', () => {
  it("shows their writes in its owner's /api/products at once", async () => {
    const host = await person(server, 'Host');
    const guest = await person(server, 'Guest');
    // What an accepted invitation to the personal catalogue leaves.
    await setMember(server, host.id, guest.id, 'editor');
    const names = async () =>
      (
        (await must(server, host, { method: 'GET', url: '/api/products' }, 200)).body as {
          products: { name: string }[];
        }
      ).products.map((product) => product.name);
    expect(await names()).toEqual([]);
    await createProductIn(server, guest, host.id, { name: 'Brought by the guest' });
    expect(await names()).toEqual(['Brought by the guest']);
    const summary = await must(server, host, { method: 'GET', url: '/api/products/summary' }, 200);
    expect(summary.body).toMatchObject({ count: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { multipart } from '../support/images.js';
import { csvText } from '../support/products.js';
import { addMember, api, createIn, member, newCatalogue, productOf } from './support.js';

const NOT_FOUND = { message: 'Catalogue not found' };

/**
 * A member removed while their write is under way: the write passed the scope's check before the
 * removal and reaches its transaction after the removal committed. It must change nothing.
 */
describe('a removal that commits between a write\u2019s check and its transaction', async () => {
  /** Requests that carry this header stop after the scope's check until `release`. */
  let held: Promise<void> = Promise.resolve();
  let arrived: () => void = () => {};
  const server = await build({
    beforeReady: (app) =>
      app.addHook('preHandler', async (request) => {
        if (request.headers['x-hold'] === undefined) return;
        arrived();
        await held;
      }),
  });

  /** Sends the request, lets it pass the membership check, then runs `meanwhile` before it goes on. */
  async function interleaved<T>(
    send: (headers: Record<string, string>) => Promise<T>,
    meanwhile: () => Promise<void>,
  ): Promise<T> {
    let release!: () => void;
    held = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const answer = send({ 'x-hold': '1' });
    await reached;
    await meanwhile();
    release();
    return answer;
  }

  it('refuses every kind of write with 404 and writes nothing', async () => {
    const owner = await member(server);
    const { id } = await newCatalogue(server, owner);
    const base = `/api/catalogues/${id}/products`;
    const product = productOf(await createIn(server, owner, id, { name: 'Hinge', stock: '5' }));
    const editor = await member(server);
    // What a write would leave; the removal's own events (catalogue.*) are not a write's.
    const countRows = async () =>
      Promise.all(
        (['products', 'stock_movements', 'live_events'] as const).map(async (table) =>
          Number(
            (
              await server.database.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .$if(table === 'live_events', (query) =>
                  query.where('kind', 'not like', 'catalogue.%'),
                )
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      );

    const form = await multipart({ name: 'Late', price: '1', stock: '1', description: 'x' });
    const csv = await multipart(
      {},
      {
        field: 'file',
        filename: 'late.csv',
        contentType: 'text/csv',
        data: Buffer.from(
          csvText([
            ['name', 'description', 'price', 'stock'],
            ['Late', 'x', '1', '1'],
          ]),
        ),
      },
    );
    const writes: [string, (headers: Record<string, string>) => ReturnType<typeof api>][] = [
      [
        'create',
        (headers) =>
          server.app.inject({
            method: 'POST',
            url: base,
            headers: { ...editor.headers, ...form.headers, ...headers },
            payload: form.payload,
          }),
      ],
      [
        'edit',
        (headers) =>
          server.app.inject({
            method: 'PATCH',
            url: `${base}/${product.id}`,
            headers: { ...editor.headers, ...headers },
            payload: { name: 'Late' },
          }),
      ],
      [
        'stock',
        (headers) =>
          server.app.inject({
            method: 'POST',
            url: `${base}/${product.id}/stock`,
            headers: { ...editor.headers, ...headers },
            payload: { delta: 1 },
          }),
      ],
      [
        'delete',
        (headers) =>
          server.app.inject({
            method: 'DELETE',
            url: `${base}/${product.id}`,
            headers: { ...editor.headers, ...headers },
          }),
      ],
      [
        'bulk delete',
        (headers) =>
          server.app.inject({
            method: 'POST',
            url: `${base}/bulk-delete`,
            headers: { ...editor.headers, ...headers },
            payload: { ids: [product.id] },
          }),
      ],
      [
        'import',
        (headers) =>
          server.app.inject({
            method: 'POST',
            url: `${base}/import`,
            headers: { ...editor.headers, ...csv.headers, ...headers },
            payload: csv.payload,
          }),
      ],
      [
        'rename',
        (headers) =>
          server.app.inject({
            method: 'PATCH',
            url: `/api/catalogues/${id}`,
            headers: { ...editor.headers, ...headers },
            payload: { name: 'Late' },
          }),
      ],
    ];
    for (const [name, send] of writes) {
      await addMember(server, id, editor, name === 'rename' ? 'admin' : 'editor');
      const before = await countRows();
      const res = await interleaved(send, async () => {
        const removed = await api(
          server,
          owner,
          'DELETE',
          `/api/catalogues/${id}/members/${editor.id}`,
        );
        expect(removed.statusCode, name).toBe(200);
      });
      expect([res.statusCode, res.json()], name).toEqual([404, NOT_FOUND]);
      expect(await countRows(), name).toEqual(before);
    }
    const still = await api(server, owner, 'GET', `${base}/${product.id}`);
    expect(still.json()).toMatchObject({ product: { name: 'Hinge', stock: 5 } });
    const catalogue = await api(server, owner, 'GET', `/api/catalogues/${id}`);
    expect(catalogue.json()).toMatchObject({ catalogue: { name: 'Shop floor' } });
  });

  it('refuses a write whose role was lowered meanwhile with 403', async () => {
    const owner = await member(server);
    const { id } = await newCatalogue(server, owner);
    const product = productOf(await createIn(server, owner, id, { stock: '5' }));
    const editor = await member(server);
    await addMember(server, id, editor, 'editor');
    const res = await interleaved(
      (headers) =>
        server.app.inject({
          method: 'PATCH',
          url: `/api/catalogues/${id}/products/${product.id}`,
          headers: { ...editor.headers, ...headers },
          payload: { name: 'Late' },
        }),
      async () => {
        const url = `/api/catalogues/${id}/members/${editor.id}`;
        expect((await api(server, owner, 'PATCH', url, { role: 'viewer' })).statusCode).toBe(200);
      },
    );
    expect(res.statusCode).toBe(403);
  });
});

/**
 * Removals racing many writes for real: every write either answered 200 and wrote its movement,
 * or was refused and wrote nothing, and none is accepted once the removal has answered.
 */
describe('removals racing writes', async () => {
  const server = await build();

  it('keeps every answer true to what was written', async () => {
    const owner = await member(server);
    const { id } = await newCatalogue(server, owner);
    const product = productOf(await createIn(server, owner, id, { stock: '0' }));
    for (let round = 0; round < 5; round += 1) {
      const clerk = await member(server);
      await addMember(server, id, clerk, 'stock');
      const adjust = () =>
        api(server, clerk, 'POST', `/api/catalogues/${id}/products/${product.id}/stock`, {
          delta: 1,
        });
      const early = Array.from({ length: 10 }, adjust);
      const removal = api(server, owner, 'DELETE', `/api/catalogues/${id}/members/${clerk.id}`);
      const late = Array.from({ length: 10 }, adjust);
      const removed = await removal;
      expect(removed.statusCode).toBe(200);
      const after = await adjust();
      expect([after.statusCode, after.json()]).toEqual([404, NOT_FOUND]);
      const answers = await Promise.all([...early, ...late]);
      const accepted = answers.filter((res) => res.statusCode === 200).length;
      expect(answers.every((res) => [200, 404].includes(res.statusCode))).toBe(true);
      const written = await server.database.db
        .selectFrom('stock_movements')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('actor_id', '=', clerk.id)
        .executeTakeFirstOrThrow();
      expect(Number(written.n), `round ${round}`).toBe(accepted);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { build } from '../support/build.js';
import { csvText, importCsv } from '../support/products.js';
import { addMember, api, createIn, member, newCatalogue, productOf } from './support.js';

/** Who did what in a catalogue: movements name their actor, and product changes leave entries. */
describe('who did what', async () => {
  const server = await build();

  const entries = (catalogueId: string) =>
    server.database.db
      .selectFrom('activity_entries')
      .select(['kind', 'actor_id', 'product_id', 'product_name', 'data'])
      .where('catalogue_id', '=', catalogueId)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, data: JSON.parse(row.data) as unknown })));

  it("names each movement's member, and records who created and edited a product", async () => {
    const owner = await member(server, 'Olga');
    const clerk = await member(server, 'Carl');
    const { id } = await newCatalogue(server, owner);
    await addMember(server, id, clerk, 'stock');
    const product = productOf(await createIn(server, owner, id, { stock: '2' }));
    const base = `/api/catalogues/${id}/products/${product.id}`;
    expect((await api(server, clerk, 'POST', `${base}/stock`, { delta: 3 })).statusCode).toBe(200);
    const res = await api(server, clerk, 'GET', `${base}/movements`);
    const { movements } = res.json() as { movements: { delta: number; actor: unknown }[] };
    expect(movements.map(({ delta, actor }) => ({ delta, actor }))).toEqual([
      { delta: 3, actor: { id: clerk.id, name: 'Carl' } },
      { delta: 2, actor: { id: owner.id, name: 'Olga' } },
    ]);
    const row = await server.database.db
      .selectFrom('products')
      .select(['created_by', 'updated_by'])
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ created_by: owner.id, updated_by: owner.id });
  });

  it('writes an entry for each create, edit, delete, bulk delete and import, and none for a refusal', async () => {
    const owner = await member(server);
    const editor = await member(server);
    const { id } = await newCatalogue(server, owner);
    await addMember(server, id, editor, 'editor');
    const base = `/api/catalogues/${id}/products`;
    const first = productOf(await createIn(server, owner, id, { name: 'Lamp', sku: 'L-1' }));
    const second = productOf(await createIn(server, owner, id, { name: 'Desk' }));
    const edited = await api(server, editor, 'PATCH', `${base}/${first.id}`, {
      name: 'Lamp XL',
      price: 25,
    });
    expect(edited.statusCode).toBe(200);
    // Refused (the SKU is taken): no entry.
    const taken = await api(server, editor, 'PATCH', `${base}/${second.id}`, { sku: 'l-1' });
    expect(taken.statusCode).toBe(409);
    expect((await api(server, editor, 'DELETE', `${base}/${first.id}`)).statusCode).toBe(200);
    const bulk = await api(server, editor, 'POST', `${base}/bulk-delete`, { ids: [second.id] });
    expect(bulk.statusCode).toBe(200);
    const csv = csvText([
      ['name', 'description', 'price', 'stock'],
      ['Chair', 'Oak', '40', '2'],
    ]);
    const imported = await importCsv(server, editor, csv, '', base);
    expect(imported.statusCode).toBe(200);

    expect(await entries(id)).toEqual([
      {
        kind: 'product.created',
        actor_id: owner.id,
        product_id: first.id,
        product_name: 'Lamp',
        data: {},
      },
      {
        kind: 'product.created',
        actor_id: owner.id,
        product_id: second.id,
        product_name: 'Desk',
        data: {},
      },
      {
        kind: 'product.updated',
        actor_id: editor.id,
        product_id: first.id,
        product_name: 'Lamp XL',
        data: {
          changes: {
            name: { before: 'Lamp', after: 'Lamp XL' },
            price: { before: 1999, after: 2500 },
          },
        },
      },
      {
        kind: 'product.deleted',
        actor_id: editor.id,
        product_id: first.id,
        product_name: 'Lamp XL',
        data: {},
      },
      {
        kind: 'products.deleted',
        actor_id: editor.id,
        product_id: null,
        product_name: null,
        data: { products: [{ id: second.id, name: 'Desk' }] },
      },
      {
        kind: 'import.done',
        actor_id: editor.id,
        product_id: null,
        product_name: null,
        data: { created: 1, updated: 0 },
      },
    ]);
  });
});

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { PurchaseOrder } from '../../../src/shared/schemas/purchasing/purchase-orders.js';
import type { Supplier } from '../../../src/shared/schemas/purchasing/suppliers.js';
import { build } from '../support/build.js';
import { pdfText } from '../support/printed-labels.js';
import {
  addMember,
  api,
  createIn,
  member,
  newCatalogue,
  productOf,
} from '../catalogues/support.js';

const server = await build();

/** A shared catalogue with a supplier and an ordered order of three lines. */
async function orderedOrder() {
  const owner = await member(server);
  const catalogue = await newCatalogue(server, owner, 'Harbor Hardware');
  const base = `/api/catalogues/${catalogue.id}`;
  const made = await api(server, owner, 'POST', `${base}/suppliers`, {
    name: 'Acme Ceramics',
    email: 'orders@acme.test',
    phone: '+1 555 0100',
  });
  const supplier = (made.json() as { supplier: Supplier }).supplier;
  const product = async (name: string, sku: string) =>
    productOf(await createIn(server, owner, catalogue.id, { name, sku }));
  const cup = await product('Teacup Ω', 'CUP-1');
  const saucer = await product('Saucer', 'SAU-1');
  const kettle = await product('Kettle', 'KET-1');
  const suppliers = async (id: string, supplierSku: string) =>
    server.app.inject({
      method: 'PUT',
      url: `${base}/products/${id}/suppliers`,
      headers: owner.headers,
      payload: { suppliers: [{ supplierId: supplier.id, supplierSku, preferred: true }] },
    });
  await suppliers(cup.id, 'AC-TEA-12');
  await suppliers(kettle.id, 'AC-KET-3');
  const draft = await api(server, owner, 'POST', `${base}/purchase-orders`, {
    supplierId: supplier.id,
    expectedAt: '2026-02-15',
    notes: 'Deliver to the back door',
    lines: [
      { productId: cup.id, quantity: 12, unitCost: 2.35 },
      { productId: saucer.id, quantity: 1500, unitCost: 0.99 },
      { productId: kettle.id, quantity: 3, unitCost: 1234.56 },
    ],
  });
  expect(draft.statusCode, draft.body).toBe(201);
  const order = (draft.json() as { purchaseOrder: PurchaseOrder }).purchaseOrder;
  await api(server, owner, 'PATCH', `${base}/purchase-orders/${order.id}`, { status: 'ordered' });
  return { owner, catalogue, base, order, cup, saucer, kettle };
}

describe("a purchase order's PDF and CSV", () => {
  it('prints the buyer, the supplier, each line with its SKU and total, and the order total', async () => {
    const { owner, base, order } = await orderedOrder();
    const res = await api(server, owner, 'GET', `${base}/purchase-orders/${order.id}.pdf`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="stockroom-PO-0001.pdf"');
    const text = await pdfText(res.rawPayload);
    for (const words of [
      'Harbor Hardware',
      'Purchase order PO-0001',
      'Supplier: Acme Ceramics',
      'orders@acme.test',
      'Expected: 2026-02-15',
      'Deliver to the back door',
      'Teacup Ω',
      'AC-TEA-12',
      'AC-KET-3',
      'SKU SAU-1',
    ])
      expect(text).toContain(words);
    // Each line: quantity, unit cost, total; then the order's units and total.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toMatch(/12 \$2\.35 \$28\.20/);
    expect(flat).toMatch(/1,500 \$0\.99 \$1,485\.00/);
    expect(flat).toMatch(/3 \$1,234\.56 \$3,703\.68/);
    expect(flat).toMatch(/Total 1,515 \$5,216\.88/);
  });

  it('gives the lines as CSV with exact totals', async () => {
    const { owner, base, order, cup, saucer, kettle } = await orderedOrder();
    const res = await api(server, owner, 'GET', `${base}/purchase-orders/${order.id}.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="stockroom-PO-0001.csv"');
    expect(parse(res.body.replace(/^\uFEFF/, ''))).toEqual([
      [
        'number',
        'supplier',
        'productId',
        'supplierSku',
        'sku',
        'name',
        'quantity',
        'unitCost',
        'lineTotal',
        'received',
      ],
      [
        'PO-0001',
        'Acme Ceramics',
        cup.id,
        'AC-TEA-12',
        'CUP-1',
        'Teacup Ω',
        '12',
        '2.35',
        '28.20',
        '0',
      ],
      [
        'PO-0001',
        'Acme Ceramics',
        saucer.id,
        '',
        'SAU-1',
        'Saucer',
        '1500',
        '0.99',
        '1485.00',
        '0',
      ],
      [
        'PO-0001',
        'Acme Ceramics',
        kettle.id,
        'AC-KET-3',
        'KET-1',
        'Kettle',
        '3',
        '1234.56',
        '3703.68',
        '0',
      ],
    ]);
  });

  it('is every member’s to read, and no other catalogue’s', async () => {
    const { catalogue, base, order } = await orderedOrder();
    const viewer = await member(server);
    await addMember(server, catalogue.id, viewer, 'viewer');
    for (const file of ['pdf', 'csv']) {
      const url = `${base}/purchase-orders/${order.id}.${file}`;
      expect((await api(server, viewer, 'GET', url)).statusCode).toBe(200);
      const stranger = await member(server);
      expect((await api(server, stranger, 'GET', url)).statusCode).toBe(404);
      const unknown = `${base}/purchase-orders/00000000-0000-4000-8000-000000000000.${file}`;
      expect((await api(server, viewer, 'GET', unknown)).statusCode).toBe(404);
      // Another catalogue's order, asked for through one of the caller's own.
      const own = await member(server);
      const theirs = `/api/purchase-orders/${order.id}.${file}`;
      expect((await api(server, own, 'GET', theirs)).json().message).toBe(
        'Purchase order not found',
      );
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { MovementsResponse } from '../../../src/shared/schemas/catalogue.js';
import type { Product } from '../../../src/shared/schemas/products.js';
import { PO, type PurchaseOrder } from '../../../src/shared/schemas/purchasing/purchase-orders.js';
import type { Supplier } from '../../../src/shared/schemas/purchasing/suppliers.js';
import { movingAverageCents } from '../../../src/server/features/products/index.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { createProduct, getProduct } from '../support/products.js';

const server = await build();

const inject = (
  who: SignedIn,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  server.app.inject({
    method,
    url,
    headers: { ...who.headers, ...headers },
    ...(payload ? { payload } : {}),
  });

async function setUp() {
  const user = await signIn(server);
  const made = await inject(user, 'POST', '/api/suppliers', { name: 'Acme', email: 'a@acme.test' });
  const supplier = (made.json() as { supplier: Supplier }).supplier;
  return { user, supplier };
}

async function draft(user: SignedIn, body: object) {
  const res = await inject(user, 'POST', '/api/purchase-orders', body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { purchaseOrder: PurchaseOrder }).purchaseOrder;
}
const patch = (user: SignedIn, id: string, body: object) =>
  inject(user, 'PATCH', `/api/purchase-orders/${id}`, body);
const receive = (user: SignedIn, id: string, body: object, headers?: Record<string, string>) =>
  inject(user, 'POST', `/api/purchase-orders/${id}/receipts`, body, headers);
const productOf = async (user: SignedIn, id: string) =>
  ((await getProduct(server, user, id)).json() as { product: Product }).product;

describe('the status machine of a purchase order', () => {
  it('numbers drafts per catalogue, and moves only where it may', async () => {
    const { user, supplier } = await setUp();
    const cup = await createProduct(server, user, { name: 'Cup', stock: '1' });
    const first = await draft(user, { supplierId: supplier.id });
    const second = await draft(user, {
      supplierId: supplier.id,
      lines: [{ productId: cup.id, quantity: 4, unitCost: 2.5 }],
    });
    expect([first.number, second.number]).toEqual(['PO-0001', 'PO-0002']);
    expect(second).toMatchObject({ status: 'draft', totalQuantity: 4, totalCost: 10 });

    // A draft without lines cannot be ordered; a draft's lines, date and notes can change.
    const empty = await patch(user, first.id, { status: 'ordered' });
    expect(empty.statusCode).toBe(409);
    expect(empty.json()).toEqual({ message: PO.emptyOrder });
    const edited = await patch(user, first.id, {
      lines: [{ productId: cup.id, quantity: 2 }],
      expectedAt: '2027-01-15',
      notes: 'Dock 2',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().purchaseOrder).toMatchObject({
      expectedAt: '2027-01-15T00:00:00.000Z',
      notes: 'Dock 2',
      lines: [{ productId: cup.id, quantity: 2, received: 0 }],
    });

    // draft → cancelled; a cancelled order moves no more, and can be deleted.
    expect((await patch(user, first.id, { status: 'cancelled' })).statusCode).toBe(200);
    for (const status of ['ordered', 'cancelled']) {
      const refused = await patch(user, first.id, { status });
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().message).toBe(PO.cannotMove('cancelled', status));
    }
    expect((await inject(user, 'DELETE', `/api/purchase-orders/${first.id}`)).statusCode).toBe(200);

    // draft → ordered: no more edits, no ordering twice, no delete.
    expect((await patch(user, second.id, { status: 'ordered' })).statusCode).toBe(200);
    expect((await patch(user, second.id, { notes: 'Late' })).json()).toEqual({
      message: PO.notDraft,
    });
    expect((await patch(user, second.id, { status: 'ordered' })).statusCode).toBe(409);
    expect((await inject(user, 'DELETE', `/api/purchase-orders/${second.id}`)).statusCode).toBe(
      409,
    );
    // A draft cannot be received against.
    const third = await draft(user, {
      supplierId: supplier.id,
      lines: [{ productId: cup.id, quantity: 1 }],
    });
    const early = await receive(user, third.id, {
      locationId: await catalogueIdOf(user),
      lines: [{ productId: cup.id, quantity: 1 }],
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: PO.notReceivable });

    // ordered → partially received → received; neither can be ordered again, a received one
    // cannot be cancelled, a part-received one can (closed short).
    const main = await catalogueIdOf(user);
    const part = await receive(user, second.id, {
      locationId: main,
      lines: [{ productId: cup.id, quantity: 1 }],
    });
    expect(part.json().purchaseOrder.status).toBe('partially_received');
    expect((await patch(user, second.id, { status: 'ordered' })).json()).toEqual({
      message: PO.cannotMove('partially_received', 'ordered'),
    });
    const rest = await receive(user, second.id, {
      locationId: main,
      lines: [{ productId: cup.id, quantity: 3 }],
    });
    expect(rest.json().purchaseOrder.status).toBe('received');
    for (const status of ['ordered', 'cancelled']) {
      expect((await patch(user, second.id, { status })).json()).toEqual({
        message: PO.cannotMove('received', status),
      });
    }
    const late = await receive(user, second.id, {
      locationId: main,
      lines: [{ productId: cup.id, quantity: 1 }],
    });
    expect(late.statusCode).toBe(409);

    await patch(user, third.id, { status: 'ordered' });
    await receive(user, third.id, {
      locationId: main,
      lines: [{ productId: cup.id, quantity: 1 }],
    });
    const fourth = await draft(user, {
      supplierId: supplier.id,
      lines: [{ productId: cup.id, quantity: 5 }],
    });
    await patch(user, fourth.id, { status: 'ordered' });
    await receive(user, fourth.id, {
      locationId: main,
      lines: [{ productId: cup.id, quantity: 2 }],
    });
    const closed = await patch(user, fourth.id, { status: 'cancelled' });
    expect(closed.statusCode).toBe(200);
    // Something came in: it stays on record.
    expect((await inject(user, 'DELETE', `/api/purchase-orders/${fourth.id}`)).statusCode).toBe(
      409,
    );
    const other = await signIn(server);
    expect((await inject(other, 'GET', `/api/purchase-orders/${fourth.id}`)).statusCode).toBe(404);
  });

  it("refuses a bad quantity in a user's words, at its line, on a draft and a receipt", async () => {
    const { user, supplier } = await setUp();
    const cup = await createProduct(server, user, { name: 'Cup' });
    const jug = await createProduct(server, user, { name: 'Jug' });
    const made = await draft(user, { supplierId: supplier.id });
    const words = 'Quantity must be a whole number from 1 to 2,147,483,647';
    expect(PO.quantityInvalid).toBe(words);
    for (const quantity of [0, 1.5, 2_147_483_648]) {
      const res = await patch(user, made.id, {
        lines: [
          { productId: cup.id, quantity: 2 },
          { productId: jug.id, quantity },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: words,
        errors: [{ path: 'lines.1.quantity', message: words }],
      });
    }
    const ordered = await draft(user, {
      supplierId: supplier.id,
      lines: [{ productId: cup.id, quantity: 2 }],
    });
    expect((await patch(user, ordered.id, { status: 'ordered' })).statusCode).toBe(200);
    const receipt = await receive(user, ordered.id, {
      locationId: await catalogueIdOf(user),
      lines: [{ productId: cup.id, quantity: 0 }],
    });
    expect(receipt.statusCode).toBe(400);
    expect(receipt.json()).toEqual({
      message: words,
      errors: [{ path: 'lines.0.quantity', message: words }],
    });
  });

  it('refuses an expected date the calendar does not have, rather than rolling it over', async () => {
    const { user, supplier } = await setUp();
    const made = await draft(user, { supplierId: supplier.id });
    for (const expectedAt of ['2027-02-30', '2027-02-29', '2027-04-31T10:00:00Z', '2027-06-31']) {
      for (const res of [
        await inject(user, 'POST', '/api/purchase-orders', { supplierId: supplier.id, expectedAt }),
        await patch(user, made.id, { expectedAt }),
      ]) {
        expect(res.statusCode, `${expectedAt} ${res.body}`).toBe(400);
        expect(res.json().message).toBe(PO.expectedAtInvalid);
      }
    }
    // A leap year's 29 February is a day, and the last of each month too.
    const leap = await draft(user, { supplierId: supplier.id, expectedAt: '2028-02-29' });
    expect(leap.expectedAt).toBe('2028-02-29T00:00:00.000Z');
    const edited = await patch(user, made.id, { expectedAt: '2027-12-31T23:30:00+02:00' });
    expect(edited.json().purchaseOrder.expectedAt).toBe('2027-12-31T21:30:00.000Z');
  });
});

/** The personal catalogue's id: its default location's too. */
async function catalogueIdOf(user: SignedIn): Promise<string> {
  const res = await inject(user, 'GET', '/api/locations');
  const { locations } = res.json() as { locations: { id: string; isDefault: boolean }[] };
  return locations.find((location) => location.isDefault)!.id;
}

describe('receiving', () => {
  it('averages the cost to the cent, halves up, whatever the size', () => {
    expect(movingAverageCents(10, 100, 5, 133)).toBe(111);
    expect(movingAverageCents(3, 10, 7, 15)).toBe(14);
    expect(movingAverageCents(0, 500, 2, 300)).toBe(300);
    expect(movingAverageCents(4, null, 2, 300)).toBe(300);
    // Past 2^53 in the products: still exact.
    expect(movingAverageCents(2_000_000_000, 9_999_999_999, 1, 0)).toBe(9_999_999_994);
  });

  it('adds stock where it came in, moves the cost, says what came past the order', async () => {
    const { user, supplier } = await setUp();
    const main = await catalogueIdOf(user);
    const shelf = (await inject(user, 'POST', '/api/locations', { name: 'Shelf' })).json().location
      .id as string;
    const cup = await createProduct(server, user, { name: 'Cup', stock: '3', cost: '0.10' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '10', cost: '1.00' });
    const order = await draft(user, {
      supplierId: supplier.id,
      lines: [
        { productId: cup.id, quantity: 5, unitCost: 0.15 },
        { productId: jug.id, quantity: 5, unitCost: 1.33 },
      ],
    });
    await patch(user, order.id, { status: 'ordered' });
    const res = await receive(user, order.id, {
      locationId: shelf,
      lines: [
        { productId: cup.id, quantity: 7 },
        { productId: jug.id, quantity: 5 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: PO.receivedOver(12, ['Cup (7 of 5)']),
      overReceived: [{ productId: cup.id, ordered: 5, received: 7 }],
      purchaseOrder: { status: 'received' },
    });
    const cupNow = await productOf(user, cup.id);
    expect(cupNow).toMatchObject({ stock: 10, cost: 0.14 });
    expect(cupNow.locations).toEqual(
      expect.arrayContaining([expect.objectContaining({ locationId: shelf, quantity: 7 })]),
    );
    expect(await productOf(user, jug.id)).toMatchObject({ stock: 15, cost: 1.11 });
    const movements = await inject(user, 'GET', `/api/products/${cup.id}/movements`);
    const [receipt, creation] = (movements.json() as MovementsResponse).movements;
    // Which order it came in for; no order nor count for any other.
    expect(receipt).toMatchObject({ reason: 'received', purchaseOrderId: order.id, countId: null });
    expect(creation).toMatchObject({ source: 'create', purchaseOrderId: null, countId: null });
    const row = await server.database.db
      .selectFrom('stock_movements')
      .select(['purchase_order_id', 'location_id'])
      .where('product_id', '=', cup.id)
      .where('reason', '=', 'received')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ purchase_order_id: order.id, location_id: shelf });
    expect(main).toBeDefined();
  });

  it('counts receipts made at once each once, and a replayed one once', async () => {
    const { user, supplier } = await setUp();
    const main = await catalogueIdOf(user);
    const cup = await createProduct(server, user, { name: 'Cup', stock: '1' });
    const order = await draft(user, {
      supplierId: supplier.id,
      lines: [{ productId: cup.id, quantity: 20, unitCost: 1 }],
    });
    await patch(user, order.id, { status: 'ordered' });
    const body = { locationId: main, lines: [{ productId: cup.id, quantity: 3 }] };
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => receive(user, order.id, body)),
      receive(user, order.id, body, { 'idempotency-key': 'replay-1' }),
      receive(user, order.id, body, { 'idempotency-key': 'replay-1' }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const { purchaseOrder } = (
      await inject(user, 'GET', `/api/purchase-orders/${order.id}`)
    ).json() as {
      purchaseOrder: PurchaseOrder;
    };
    // 4 receipts and the keyed one once: 15 units, every one counted on the line and in stock.
    expect(purchaseOrder.lines[0]!.received).toBe(15);
    expect((await productOf(user, cup.id)).stock).toBe(16);
    expect(purchaseOrder.status).toBe('partially_received');
  });
});

describe("ordering what's low", () => {
  it('drafts one order per preferred supplier, and shows what is on order beside the report', async () => {
    const { user, supplier } = await setUp();
    const other = (await inject(user, 'POST', '/api/suppliers', { name: 'Bolt' })).json()
      .supplier as Supplier;
    const cup = await createProduct(server, user, { name: 'Cup', stock: '2', cost: '1.00' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '4' });
    const vase = await createProduct(server, user, { name: 'Vase', stock: '1' });
    await createProduct(server, user, { name: 'Plenty', stock: '50' });
    await inject(user, 'PUT', `/api/products/${cup.id}/suppliers`, {
      suppliers: [{ supplierId: supplier.id, supplierSku: 'AC-CUP', cost: 0.8, preferred: true }],
    });
    await inject(user, 'PUT', `/api/products/${jug.id}/suppliers`, {
      suppliers: [{ supplierId: other.id, preferred: true }],
    });
    // The vase has no preferred supplier: left out.
    const set = await inject(user, 'PATCH', `/api/products/${jug.id}`, { reorderQuantity: 24 });
    expect(set.json().product.reorderQuantity).toBe(24);
    const res = await inject(user, 'POST', '/api/purchase-orders/from-reorder');
    expect(res.statusCode, res.body).toBe(201);
    const drafts = (res.json() as { purchaseOrders: PurchaseOrder[] }).purchaseOrders;
    expect(drafts).toHaveLength(2);
    const bySupplier = Object.fromEntries(drafts.map((each) => [each.supplierName, each.lines]));
    // Cup: stock 2, the catalogue's point 10 → 9 take it past the point, at the supplier's cost.
    expect(bySupplier.Acme).toEqual([
      expect.objectContaining({
        productId: cup.id,
        quantity: 9,
        unitCost: 0.8,
        supplierSku: 'AC-CUP',
      }),
    ]);
    expect(bySupplier.Bolt).toEqual([expect.objectContaining({ productId: jug.id, quantity: 24 })]);
    expect(vase.id).toBeDefined();

    // Ordered, they are on order: the report says so, and nothing is drafted twice.
    for (const each of drafts) await patch(user, each.id, { status: 'ordered' });
    const report = await inject(user, 'GET', '/api/products/reports/to-reorder');
    const rows = report.json().products as { id: string; onOrder: number; toOrder: number }[];
    expect(rows.find((row) => row.id === cup.id)).toMatchObject({ onOrder: 9, toOrder: 0 });
    expect(rows.find((row) => row.id === vase.id)).toMatchObject({ onOrder: 0, toOrder: 10 });
    const again = await inject(user, 'POST', '/api/purchase-orders/from-reorder');
    expect(again.json()).toEqual({ message: PO.drafted(0), purchaseOrders: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { PO, type PurchaseOrder } from '../../../src/shared/schemas/purchasing/purchase-orders.js';
import type { Supplier } from '../../../src/shared/schemas/purchasing/suppliers.js';
import { build } from '../support/build.js';
import { signIn, type SignedIn } from '../support/accounts.js';
import { makePending } from '../support/pending-imports.js';
import { createProduct } from '../support/products.js';

const server = await build();
const db = server.database.db;

const inject = (who: SignedIn, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

describe("purchasing leaves a pending import's products out", () => {
  it('orders, drafts and receives only what is there', async () => {
    const user = await signIn(server);
    const made = await inject(user, 'POST', '/api/suppliers', { name: 'Acme' });
    const supplier = (made.json() as { supplier: Supplier }).supplier;
    const cup = await createProduct(server, user, { name: 'Cup', stock: '1' });
    const jug = await createProduct(server, user, { name: 'Jug', stock: '1' });
    const staged = await createProduct(server, user, { name: 'Staged', stock: '1' });
    for (const product of [cup, jug, staged]) {
      await db
        .insertInto('product_suppliers')
        .values({
          product_id: product.id,
          supplier_id: supplier.id,
          catalogue_id: (
            await db
              .selectFrom('products')
              .select('catalogue_id')
              .where('id', '=', product.id)
              .executeTakeFirstOrThrow()
          ).catalogue_id,
          supplier_sku: null,
          cost_cents: 100,
          preferred: 1,
        })
        .execute();
    }
    // An order made before the jug became a pending import's.
    const before = await inject(user, 'POST', '/api/purchase-orders', {
      supplierId: supplier.id,
      lines: [
        { productId: cup.id, quantity: 5 },
        { productId: jug.id, quantity: 5 },
      ],
    });
    const order = (before.json() as { purchaseOrder: PurchaseOrder }).purchaseOrder;
    await inject(user, 'PATCH', `/api/purchase-orders/${order.id}`, { status: 'ordered' });
    await makePending(db, [staged.id, jug.id]);

    const refused = await inject(user, 'POST', '/api/purchase-orders', {
      supplierId: supplier.id,
      lines: [{ productId: staged.id, quantity: 1 }],
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(PO.productNotFound);

    // The drafts take the cup only (the jug is on order already, and hidden).
    const drafted = await inject(user, 'POST', '/api/purchase-orders/from-reorder');
    const drafts = (drafted.json() as { purchaseOrders: PurchaseOrder[] }).purchaseOrders;
    expect(drafts.flatMap((each) => each.lines.map((line) => line.productId))).toEqual([cup.id]);

    // The order reads the hidden product's line as a deleted product's, and takes in none of it.
    const read = await inject(user, 'GET', `/api/purchase-orders/${order.id}`);
    const lines = (read.json() as { purchaseOrder: PurchaseOrder }).purchaseOrder.lines;
    expect(lines.map((line) => [line.productId, line.name])).toEqual([
      [cup.id, 'Cup'],
      [jug.id, null],
    ]);
    const locationId = (
      await db
        .selectFrom('locations')
        .select('id')
        .where(
          'catalogue_id',
          '=',
          (
            await db
              .selectFrom('products')
              .select('catalogue_id')
              .where('id', '=', cup.id)
              .executeTakeFirstOrThrow()
          ).catalogue_id,
        )
        .executeTakeFirstOrThrow()
    ).id;
    const receipt = await inject(user, 'POST', `/api/purchase-orders/${order.id}/receipts`, {
      locationId,
      lines: [{ productId: jug.id, quantity: 5 }],
    });
    expect(receipt.statusCode).toBe(404);
    const jugRow = await db
      .selectFrom('products')
      .select('stock')
      .where('id', '=', jug.id)
      .executeTakeFirstOrThrow();
    expect(jugRow.stock).toBe(1);
  });
});

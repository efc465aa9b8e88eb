import { randomUUID } from 'node:crypto';
import {
  PO,
  poNumber,
  PURCHASE_ORDERS_PAGE_MAX,
  type OrderLineInput,
  type PurchaseOrder,
  type PurchaseOrderCreate,
  type PurchaseOrderStatus,
  type PurchaseOrderSummary,
} from '../../../shared/schemas/purchasing/purchase-orders.js';
import { centsToPrice } from '../../../shared/schemas/money.js';
import type { DB } from '../../infra/db/handle.js';
import { visibleProduct } from '../../infra/db/visible-products.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { CatalogueWrite } from '../writes/index.js';

export const conflict = (message: string) => new HttpError(409, message);
const iso = (at: number) => new Date(at).toISOString();
/** Whether lines of an order in this status are on order (the to-reorder report counts them). */
const isOpen = (status: PurchaseOrderStatus) =>
  status === 'ordered' || status === 'partially_received';

/** The catalogue's next order number: one upsert, atomic on both engines, never given twice. */
async function nextNumber(trx: DB, catalogueId: string): Promise<number> {
  const row = await trx
    .insertInto('purchase_order_numbers')
    .values({ catalogue_id: catalogueId, last_number: 1 })
    .onConflict((oc) =>
      oc.column('catalogue_id').doUpdateSet((eb) => ({
        last_number: eb('purchase_order_numbers.last_number', '+', 1),
      })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

const ORDER_COLUMNS = [
  'po.id',
  'po.number',
  'po.supplier_id',
  's.name as supplier_name',
  's.email as supplier_email',
  'po.status',
  'po.expected_at',
  'po.notes',
  'po.sent_at',
  'po.created_at',
  'po.updated_at',
] as const;

/** An order's row and its supplier's name; undefined when it is not the catalogue's. */
async function orderRow(db: DB, catalogueId: string, poId: string) {
  return db
    .selectFrom('purchase_orders as po')
    .innerJoin('suppliers as s', 's.id', 'po.supplier_id')
    .select(ORDER_COLUMNS)
    .where('po.catalogue_id', '=', catalogueId)
    .where('po.id', '=', poId.toLowerCase())
    .executeTakeFirst();
}
type OrderRow = NonNullable<Awaited<ReturnType<typeof orderRow>>>;

/** An order's lines in their order, with each product's name, SKU and the supplier's SKU. */
async function orderLines(db: DB, poId: string, supplierId: string) {
  const rows = await db
    .selectFrom('purchase_order_lines as l')
    // A product of a pending import is not there yet: its line reads as a deleted product's.
    .leftJoin('products as p', (join) =>
      join.onRef('p.id', '=', 'l.product_id').on(visibleProduct('p')),
    )
    .leftJoin('product_suppliers as ps', (join) =>
      join.onRef('ps.product_id', '=', 'l.product_id').on('ps.supplier_id', '=', supplierId),
    )
    .select([
      'l.product_id',
      'l.quantity',
      'l.unit_cost_cents',
      'l.received',
      'p.name',
      'p.sku',
      'ps.supplier_sku',
    ])
    .where('l.purchase_order_id', '=', poId)
    .orderBy('l.position')
    .execute();
  return rows.map((row) => ({
    productId: row.product_id,
    name: row.name,
    sku: row.sku,
    supplierSku: row.supplier_sku,
    quantity: row.quantity,
    unitCostCents: Number(row.unit_cost_cents),
    received: row.received,
  }));
}
type OrderLine = Awaited<ReturnType<typeof orderLines>>[number];

/** Σ quantity × unit cost in cents, exact (BigInt) however large. */
const totalCents = (lines: { quantity: number; unitCostCents: number }[]) =>
  lines.reduce((sum, line) => sum + BigInt(line.quantity) * BigInt(line.unitCostCents), 0n);
const dollars = (cents: bigint) => Number(cents) / 100;

function present(row: OrderRow, lines: OrderLine[]): PurchaseOrder {
  return {
    id: row.id,
    number: poNumber(row.number),
    supplierId: row.supplier_id,
    supplierName: row.supplier_name,
    status: row.status,
    expectedAt: row.expected_at === null ? null : iso(Number(row.expected_at)),
    notes: row.notes,
    sentAt: row.sent_at === null ? null : iso(Number(row.sent_at)),
    createdAt: iso(Number(row.created_at)),
    updatedAt: iso(Number(row.updated_at)),
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalCost: dollars(totalCents(lines)),
    lines: lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      sku: line.sku,
      supplierSku: line.supplierSku,
      quantity: line.quantity,
      unitCost: centsToPrice(line.unitCostCents),
      received: line.received,
    })),
  };
}

/** One order of the catalogue with its lines; 404 when it is not one. */
export async function findOrder(db: DB, catalogueId: string, poId: string) {
  const row = await orderRow(db, catalogueId, poId);
  if (!row) throw notFound(PO.notFound);
  const lines = await orderLines(db, row.id, row.supplier_id);
  return { row, lines, order: present(row, lines) };
}

/**
 * The catalogue's orders, newest first, at most a page: one range of the (catalogue, number)
 * index, each with its totals added up in the same statement.
 */
export async function listOrders(
  db: DB,
  catalogueId: string,
  status: PurchaseOrderStatus | undefined,
): Promise<PurchaseOrderSummary[]> {
  const rows = await db
    .selectFrom('purchase_orders as po')
    .innerJoin('suppliers as s', 's.id', 'po.supplier_id')
    .select(ORDER_COLUMNS)
    .select((eb) => [
      eb
        .selectFrom('purchase_order_lines as l')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('l.purchase_order_id', '=', 'po.id')
        .as('line_count'),
      eb
        .selectFrom('purchase_order_lines as l')
        .select((inner) => inner.fn.sum<number>('l.quantity').as('q'))
        .whereRef('l.purchase_order_id', '=', 'po.id')
        .as('total_quantity'),
    ])
    .where('po.catalogue_id', '=', catalogueId)
    .$if(status !== undefined, (query) => query.where('po.status', '=', status!))
    .orderBy('po.number', 'desc')
    .limit(PURCHASE_ORDERS_PAGE_MAX)
    .execute();
  const summaries: PurchaseOrderSummary[] = [];
  for (const row of rows) {
    // The cost total in exact cents: at most 500 lines an order, read by its primary key.
    const lines = await db
      .selectFrom('purchase_order_lines')
      .select(['quantity', 'unit_cost_cents'])
      .where('purchase_order_id', '=', row.id)
      .execute();
    const cost = totalCents(
      lines.map((line) => ({
        quantity: line.quantity,
        unitCostCents: Number(line.unit_cost_cents),
      })),
    );
    const { lines: _none, ...summary } = present(row, []);
    summaries.push({
      ...summary,
      totalQuantity: Number(row.total_quantity ?? 0),
      totalCost: dollars(cost),
      lineCount: Number(row.line_count ?? 0),
    });
  }
  return summaries;
}

/** The supplier, checked to be the catalogue's. */
async function supplierOf(trx: DB, catalogueId: string, supplierId: string) {
  const supplier = await trx
    .selectFrom('suppliers')
    .select(['id', 'name'])
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', supplierId)
    .executeTakeFirst();
  if (!supplier) throw notFound(PO.supplierNotFound);
  return supplier;
}

/**
 * An order's lines as stored: each product checked to be the catalogue's, and a unit cost not
 * given taken from the supplier's cost for it, else the product's, else 0.
 */
async function storedLines(
  trx: DB,
  catalogueId: string,
  supplierId: string,
  lines: OrderLineInput[],
) {
  if (lines.length === 0) return [];
  const ids = lines.map((line) => line.productId);
  const products = await trx
    .selectFrom('products as p')
    .leftJoin('product_suppliers as ps', (join) =>
      join.onRef('ps.product_id', '=', 'p.id').on('ps.supplier_id', '=', supplierId),
    )
    .select(['p.id', 'p.cost_cents', 'ps.cost_cents as supplier_cost_cents'])
    .where('p.catalogue_id', '=', catalogueId)
    .where('p.id', 'in', ids)
    .where(visibleProduct('p'))
    .execute();
  if (products.length !== ids.length) throw notFound(PO.productNotFound);
  const costs = new Map(
    products.map((row) => [row.id, row.supplier_cost_cents ?? row.cost_cents ?? 0]),
  );
  return lines.map((line, position) => ({
    product_id: line.productId,
    catalogue_id: catalogueId,
    position,
    quantity: line.quantity,
    unit_cost_cents: line.unitCost ?? Number(costs.get(line.productId)),
  }));
}

async function writeLines(trx: DB, poId: string, lines: Awaited<ReturnType<typeof storedLines>>) {
  await trx.deleteFrom('purchase_order_lines').where('purchase_order_id', '=', poId).execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('purchase_order_lines')
    .values(lines.map((line) => ({ ...line, purchase_order_id: poId })))
    .execute();
}

/** A new draft for one of the catalogue's suppliers, numbered next. */
export async function createOrder(w: CatalogueWrite, body: PurchaseOrderCreate) {
  const { trx, catalogueId, now } = w;
  const supplier = await supplierOf(trx, catalogueId, body.supplierId);
  const lines = await storedLines(trx, catalogueId, supplier.id, body.lines);
  const id = randomUUID();
  await trx
    .insertInto('purchase_orders')
    .values({
      id,
      catalogue_id: catalogueId,
      number: await nextNumber(trx, catalogueId),
      supplier_id: supplier.id,
      status: 'draft',
      expected_at: body.expectedAt,
      notes: body.notes,
      sent_at: null,
      created_by: w.actorId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await writeLines(trx, id, lines);
  return (await findOrder(trx, catalogueId, id)).order;
}

/**
 * The order's row, locked until the commit (PostgreSQL; SQLite writes one at a time): edits,
 * moves and receipts of one order made at once apply one after the other.
 */
export async function lockOrder(w: CatalogueWrite, poId: string) {
  const row = await w.trx
    .selectFrom('purchase_orders')
    .select(['id', 'status', 'supplier_id', 'number'])
    .where('catalogue_id', '=', w.catalogueId)
    .where('id', '=', poId.toLowerCase())
    .$if(w.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound(PO.notFound);
  return row;
}

/** Sets an order's status, and whether its lines count as on order. */
export async function setStatus(
  w: CatalogueWrite,
  poId: string,
  status: PurchaseOrderStatus,
  extra: { sent_at?: number } = {},
) {
  await w.trx
    .updateTable('purchase_orders')
    .set({ status, updated_at: w.now, ...extra })
    .where('id', '=', poId)
    .execute();
  await w.trx
    .updateTable('purchase_order_lines')
    .set({ is_open: isOpen(status) ? 1 : 0 })
    .where('purchase_order_id', '=', poId)
    .execute();
}

export { storedLines, writeLines };

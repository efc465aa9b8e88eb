import type { DB } from '../../infra/db/handle.js';
import { findOrder } from './purchase-orders.js';
import { lineTotalCents, type OrderSheet } from './order-pdf.js';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
/** Cents as the CSV writes money, exact in BigInt however large: 1234.50. */
const amount = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/** The columns of an order's CSV, one record per line. */
export const ORDER_CSV_HEADER = [
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
] as const;

/**
 * An order as its files print it: the order (404 when not the catalogue's), what the PDF shows
 * (the catalogue's name as the buyer, the supplier's contact) and the CSV's records.
 */
export async function orderFile(db: DB, catalogueId: string, poId: string) {
  const { row, lines, order } = await findOrder(db, catalogueId, poId);
  const [catalogue, supplier] = await Promise.all([
    db
      .selectFrom('catalogues')
      .select('name')
      .where('id', '=', catalogueId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('suppliers')
      .select(['name', 'email', 'phone'])
      .where('id', '=', row.supplier_id)
      .executeTakeFirstOrThrow(),
  ]);
  const sheet: OrderSheet = {
    buyer: catalogue.name,
    number: order.number,
    supplier,
    expected: row.expected_at === null ? null : day(Number(row.expected_at)),
    date: day(Number(row.created_at)),
    notes: row.notes,
    lines,
  };
  const records = lines.map((line) => [
    order.number,
    supplier.name,
    line.productId,
    line.supplierSku ?? '',
    line.sku ?? '',
    line.name ?? '',
    line.quantity,
    amount(BigInt(line.unitCostCents)),
    amount(lineTotalCents(line)),
    line.received,
  ]);
  return { order, sheet, records, supplierEmail: supplier.email };
}

import { PURCHASE_ORDER_LINES_MAX } from '../../../shared/schemas/purchasing/purchase-orders.js';
import { ReportQueries, toOrder } from '../reports/index.js';
import type { CatalogueWrite } from '../writes/index.js';
import { createOrder } from './purchase-orders.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/**
 * Products the drafts look at: the to-reorder report's first rows, the most short first. Bounded,
 * so one request's work is too; what is left is drafted by the next call (what is on order is
 * left out then).
 */
const DUE_MAX = 5000;

/**
 * One draft per preferred supplier (several when one would pass PURCHASE_ORDER_LINES_MAX) from
 * the products to reorder, as the report finds them: each product that has a preferred supplier,
 * its `reorderQuantity` when it has one, else what brings it past its point (the report's "to
 * order"), less what is on order already; products with nothing left to order are skipped.
 */
export async function draftsFromReorder(w: CatalogueWrite) {
  const { trx, catalogueId } = w;
  const queries = new ReportQueries(trx, w.dialect);
  const due = await queries.toReorder(catalogueId, DUE_MAX);
  if (due.length === 0) return [];
  const ids = due.map((row) => row.id);
  const onOrder = await queries.onOrderOf(catalogueId, ids);
  const extras = new Map<string, { supplierId: string; reorderQuantity: number | null }>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await trx
      .selectFrom('products as p')
      .innerJoin('product_suppliers as ps', (join) =>
        join.onRef('ps.product_id', '=', 'p.id').on('ps.preferred', '=', 1),
      )
      .select(['p.id', 'p.reorder_quantity', 'ps.supplier_id'])
      .where('p.catalogue_id', '=', catalogueId)
      .where('p.id', 'in', ids.slice(start, start + 500))
      .where(visibleProduct('p'))
      .execute();
    for (const row of rows) {
      extras.set(row.id, { supplierId: row.supplier_id, reorderQuantity: row.reorder_quantity });
    }
  }
  const bySupplier = new Map<string, { productId: string; quantity: number }[]>();
  for (const row of due) {
    const extra = extras.get(row.id);
    if (!extra) continue;
    const waiting = onOrder.get(row.id) ?? 0;
    const quantity =
      extra.reorderQuantity !== null
        ? extra.reorderQuantity - waiting
        : toOrder({ ...row, onOrder: waiting });
    if (quantity <= 0) continue;
    const lines = bySupplier.get(extra.supplierId) ?? [];
    lines.push({ productId: row.id, quantity });
    bySupplier.set(extra.supplierId, lines);
  }
  const drafts = [];
  for (const [supplierId, lines] of bySupplier) {
    for (let start = 0; start < lines.length; start += PURCHASE_ORDER_LINES_MAX) {
      const chunk = lines.slice(start, start + PURCHASE_ORDER_LINES_MAX);
      drafts.push(
        await createOrder(w, {
          supplierId,
          expectedAt: null,
          notes: null,
          lines: chunk.map((line) => ({ ...line, unitCost: null })),
        }),
      );
    }
  }
  return drafts;
}

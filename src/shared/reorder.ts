/**
 * Reorder points. A catalogue has one (REORDER_POINT_DEFAULT unless changed) and a product may set
 * its own; a product is "to reorder" when its stock is at or below the point that applies. The
 * server states the same rule in SQL (features/products/reorder.ts).
 */

/** A new catalogue's point: the low-stock threshold, so nothing changes for whoever sets none. */
export const REORDER_POINT_DEFAULT = 10;
export const REORDER_POINT_MAX = 1_000_000;
/** How many to order when the point is reached (purchasing's drafts): 1 to this, or none. */
export const REORDER_QUANTITY_MAX = 1_000_000;

/** The point that applies to a product: its own, else its catalogue's. */
export const effectiveReorderPoint = (own: number | null | undefined, catalogues: number) =>
  own ?? catalogues;

/** Whether a product is to reorder. */
export const isToReorder = (stock: number, own: number | null | undefined, catalogues: number) =>
  stock <= effectiveReorderPoint(own, catalogues);

export const REORDER_MESSAGES = {
  reorderPointInvalid: `Reorder point must be a whole number from 0 to ${REORDER_POINT_MAX.toLocaleString('en-US')}`,
  reorderQuantityInvalid: `Reorder quantity must be a whole number from 1 to ${REORDER_QUANTITY_MAX.toLocaleString('en-US')}`,
  lowStockDigestInvalid: 'lowStockDigest must be true or false',
} as const;

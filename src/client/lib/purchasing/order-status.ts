import type { PurchaseOrderStatus } from '@shared/schemas/purchasing/purchase-orders.js';

/**
 * Whether stock may be received against an order in this status: the order's screen and /scan's
 * receive mode both ask.
 */
export const isReceivable = (status: PurchaseOrderStatus) =>
  status === 'ordered' || status === 'partially_received';

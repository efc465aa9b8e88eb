import type { ActivityKind } from '../../../shared/activity.js';
import { poNumber } from '../../../shared/schemas/purchasing/purchase-orders.js';
import type { ActivityDetails } from '../activity/index.js';
import type { Answer } from '../idempotency/index.js';
import type { WriteOutcome } from '../writes/index.js';

/**
 * What a purchasing write records besides its answer: its activity entry, and one live event
 * naming the products whose stock or cost changed (none when only suppliers or orders did).
 */
export const purchasingOutcome = <A extends Answer>(
  answer: A,
  kind: ActivityKind,
  details: ActivityDetails,
  productIds: string[] = [],
): WriteOutcome<A> => ({
  answer,
  live: { kind: 'purchasing.changed', data: { productIds } },
  activity: { kind, details },
});

/** An order as an activity entry names it: its id and its number as people read it (PO-0042). */
export const named = (order: { id: string; number: number | string }) => ({
  id: order.id,
  number: typeof order.number === 'number' ? poNumber(order.number) : order.number,
});

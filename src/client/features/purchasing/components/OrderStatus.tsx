import type { PurchaseOrderStatus } from '@shared/schemas/purchasing/purchase-orders.js';

const STATUS: Record<PurchaseOrderStatus, { label: string; classes: string }> = {
  draft: { label: 'Draft', classes: 'bg-gray-100 text-gray-800' },
  ordered: { label: 'Ordered', classes: 'bg-indigo-100 text-indigo-900' },
  partially_received: { label: 'Partially received', classes: 'bg-amber-100 text-amber-900' },
  received: { label: 'Received', classes: 'bg-green-100 text-green-900' },
  cancelled: { label: 'Cancelled', classes: 'bg-red-50 text-red-800' },
};

/** An order's status as a pill: 'Draft', 'Ordered', 'Partially received'… */
export function StatusPill({ status }: { status: PurchaseOrderStatus }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS[status].classes}`}
    >
      {STATUS[status].label}
    </span>
  );
}

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** An expected date as a day ('Dec 10, 2026'), or a dash. */
export const formatExpected = (iso: string | null) => (iso ? day.format(new Date(iso)) : '—');

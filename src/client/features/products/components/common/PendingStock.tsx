import {
  pendingLabel,
  stockWithPending,
  useAllPendingChanges,
  type QueuedChange,
  type QueuedStockChange,
} from '@/lib/stock-change/index.js';

/**
 * A product as the screens show it: its stock includes the changes still waiting to be sent
 * (offline), and `pending` says so ('+3 waiting to be sent'). Totals stay the server's.
 */
function withPending<T extends { id: string; stock: number }>(
  product: T,
  changes: readonly QueuedChange[],
) {
  // A move changes where the stock is, not how much: it has no product of its own.
  const own = changes.filter(
    (change): change is QueuedStockChange => change.productId === product.id,
  );
  if (own.length === 0) return { product, pending: undefined };
  return {
    product: { ...product, stock: stockWithPending(product.stock, own) },
    pending: pendingLabel(own),
  };
}

/** withPending for one product, live. */
export function useShownStock<T extends { id: string; stock: number }>(product: T) {
  return withPending(product, useAllPendingChanges());
}

/** withPending for every row of a table, live. */
export function useShownStocks() {
  const changes = useAllPendingChanges();
  return <T extends { id: string; stock: number }>(product: T) => withPending(product, changes);
}

/** The note beside a stock that is partly not sent yet. */
export function PendingStockNote({ label }: { label: string | undefined }) {
  if (!label) return null;
  return (
    <p data-pending-stock="" className="text-xs font-medium text-amber-800">
      {label}
    </p>
  );
}

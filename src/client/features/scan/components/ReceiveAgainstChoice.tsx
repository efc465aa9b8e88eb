import { SelectField } from '@/components/ui/Field.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { formatCount } from '@/lib/format.js';
import { useExpectedLines } from '@/lib/purchasing/expected.js';
import { isReceivable } from '@/lib/purchasing/order-status.js';
import { usePurchaseOrder, usePurchaseOrders } from '@/lib/purchasing/orders-query.js';

/**
 * Receive mode's target: stock added directly, or received against an ordered purchase order,
 * whose lines show with what is still expected of each. The orders are those this device last
 * read, so the choice stays offline.
 */
export function ReceiveAgainstChoice({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (poId: string | undefined) => void;
}) {
  const catalogue = useCatalogueRef();
  const open = (usePurchaseOrders(catalogue).data ?? []).filter((order) =>
    isReceivable(order.status),
  );
  if (open.length === 0 && value === undefined) return null;
  return (
    <div className="space-y-2">
      <SelectField
        label="Receive against"
        id="scan-receive-against"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">Stock directly (no purchase order)</option>
        {open.map((order) => (
          <option key={order.id} value={order.id}>
            {order.number} · {order.supplierName}
          </option>
        ))}
        {value !== undefined && !open.some((order) => order.id === value) && (
          <option value={value}>This purchase order</option>
        )}
      </SelectField>
      {value && <StillExpected poId={value} />}
    </div>
  );
}

/** The order's lines: each product with the units still expected, and what came in. */
function StillExpected({ poId }: { poId: string }) {
  const catalogue = useCatalogueRef();
  const order = usePurchaseOrder(catalogue, poId);
  const lines = useExpectedLines(order.data);
  if (!order.data) {
    // Why it could not be read (an order gone, no connection) rather than an empty line.
    return (
      <p className="text-sm text-gray-600">
        {order.isPending ? 'Loading the order…' : getErrorMessage(order.error)}
      </p>
    );
  }
  return (
    <ul aria-label="Still expected" className="divide-y divide-gray-100 text-sm">
      {lines.map((line) => (
        <li key={line.productId} className="flex items-center gap-3 py-1">
          <span className="min-w-0 flex-1 wrap-anywhere text-gray-900">{line.name}</span>
          <span className="tabular-nums text-gray-700">
            {formatCount(line.received)} of {formatCount(line.ordered)}
          </span>
          <span className="w-28 text-right font-semibold tabular-nums">
            {line.expected > 0 ? `${formatCount(line.expected)} expected` : 'all in'}
          </span>
        </li>
      ))}
    </ul>
  );
}

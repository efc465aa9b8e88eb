import { Link } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { paths } from '@/lib/paths.js';
import { useOrderWhatsLow } from '@/lib/purchasing/order-whats-low.js';

/**
 * "Order what's low": one draft per preferred supplier from the products to reorder, then the
 * drafts made, each a link to its page. Only for roles that manage purchasing.
 */
export function OrderWhatsLowButton() {
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  const order = useOrderWhatsLow(catalogue);
  if (!may('managePurchasing')) return null;
  const drafted = order.data;
  const drafts = drafted?.purchaseOrders;
  return (
    <div className="space-y-2">
      <Button
        variant="secondary"
        busy={order.isPending}
        busyLabel="Ordering..."
        onClick={() => order.mutate()}
      >
        Order what's low
      </Button>
      {drafted && drafts && (
        <div aria-live="polite" className="text-sm text-gray-700">
          <p>{drafted.message}</p>
          {drafts.length > 0 && (
            <ul aria-label="Drafts made" className="mt-1 space-y-1">
              {drafts.map((draft) => (
                <li key={draft.id}>
                  <Link
                    to={paths.purchaseOrders.order.getHref(draft.id, catalogue)}
                    className="font-medium text-indigo-700 hover:underline"
                  >
                    {draft.number}
                  </Link>{' '}
                  · {draft.supplierName} · {draft.lines.length}{' '}
                  {draft.lines.length === 1 ? 'line' : 'lines'}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

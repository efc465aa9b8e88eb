import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { Card, CardSection } from '@/components/ui/Card.js';
import { controlClasses } from '@/components/ui/Field.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatPrice } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { usePurchaseOrderChange, usePurchaseOrders } from '../api/purchase-orders.js';
import { useSuppliers } from '../api/suppliers.js';
import { formatExpected, StatusPill } from './OrderStatus.js';
import { OrderWhatsLowButton } from '@/components/purchasing/OrderWhatsLowButton.js';
import { ListStatus } from '@/components/ui/ListStatus.js';
import { NamedOptions } from '@/components/controls/NamedOptions.js';
import { LinkCell, ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';

const COLUMNS = [
  { label: 'Number' },
  { label: 'Supplier' },
  { label: 'Status' },
  { label: 'Expected' },
  { label: 'Total', numeric: true },
];

/**
 * `/purchase-orders`: the catalogue's orders, newest first (number, supplier, status, expected
 * date, total). Editors and above start a draft for a supplier, or order what is low.
 */
export function PurchaseOrdersScreen() {
  const catalogue = useCatalogueRef();
  const mayManage = useCatalogueCan()('managePurchasing');
  const orders = usePurchaseOrders(catalogue);
  const list = orders.data ?? [];
  return (
    <div className="mx-auto max-w-4xl min-w-0 space-y-6">
      <ScreenHeading
        title="Purchase orders"
        description="What was ordered from suppliers, and what has come in."
        actions={<OrderWhatsLowButton />}
      />
      <Card className="p-0">
        <ScrollRegion label="Purchase orders">
          <table aria-label="Purchase orders" className="min-w-full text-sm">
            <TableHead columns={COLUMNS} />
            <tbody className="divide-y divide-gray-100">
              {list.map((order) => (
                <tr key={order.id}>
                  <LinkCell
                    to={paths.purchaseOrders.order.getHref(order.id, catalogue)}
                    text={order.number}
                    nowrap
                  />
                  <td className={`${tableCell} break-words`}>{order.supplierName}</td>
                  <td className={tableCell}>
                    <StatusPill status={order.status} />
                  </td>
                  <td className={`${tableCell} whitespace-nowrap`}>
                    {formatExpected(order.expectedAt)}
                  </td>
                  <td className={`${tableCell} text-right tabular-nums`}>
                    {formatPrice(order.totalCost)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <ListStatus query={orders} loading="Loading orders…" empty="No purchase orders yet." />
      </Card>
      {mayManage && <NewOrder />}
    </div>
  );
}

/** A new draft for one of the catalogue's suppliers; its page opens to add the lines. */
function NewOrder() {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const suppliers = useSuppliers(catalogue).data ?? [];
  const change = usePurchaseOrderChange(catalogue);
  const [supplierId, setSupplierId] = useState('');
  const field = useId();
  const chosen = supplierId || suppliers[0]?.id || '';
  return (
    <CardSection id="new-order" title="New purchase order" className="space-y-4">
      {suppliers.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">
          Add a supplier first on the{' '}
          <Link to={paths.suppliers.getHref(catalogue)} className="text-indigo-700 underline">
            suppliers
          </Link>{' '}
          screen.
        </p>
      ) : (
        <form
          className="mt-2 flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void change
              .mutateAsync({ kind: 'create', body: { supplierId: chosen } })
              .then(({ purchaseOrder }) =>
                purchaseOrder
                  ? navigate(paths.purchaseOrders.order.getHref(purchaseOrder.id, catalogue))
                  : undefined,
              )
              .catch(notifyError);
          }}
        >
          <div className="min-w-0 flex-1">
            <label htmlFor={field} className="block text-sm font-medium text-gray-900">
              Supplier
            </label>
            <select
              id={field}
              className={`mt-1 ${controlClasses}`}
              value={chosen}
              onChange={(event) => setSupplierId(event.target.value)}
            >
              <NamedOptions items={suppliers} />
            </select>
          </div>
          <Button type="submit" busy={change.isPending} busyLabel="Creating...">
            Create draft
          </Button>
        </form>
      )}
    </CardSection>
  );
}

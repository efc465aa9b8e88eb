import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatCount, formatDateTime, formatPrice } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { isReceivable } from '@/lib/purchasing/order-status.js';
import {
  useDownloadOrder,
  usePurchaseOrder,
  usePurchaseOrderChange,
} from '../api/purchase-orders.js';
import { orderUrl } from '@/lib/purchasing/urls.js';
import { DraftEditor } from './DraftEditor.js';
import { formatExpected, StatusPill } from './OrderStatus.js';
import { ReceivePanel } from './ReceivePanel.js';
import { ItemHeading } from '@/components/ui/ItemHeading.js';

/**
 * `/purchase-orders/:poId`: one order. A draft's lines, date and notes are edited here by editors
 * and above, who also mark it ordered, cancel it or delete it; an order's PDF and CSV download,
 * and it is sent to the supplier; the stock role and above receive against it.
 */
export function PurchaseOrderScreen() {
  const catalogue = useCatalogueRef();
  const { poId = '' } = useParams();
  const order = usePurchaseOrder(catalogue, poId);
  const may = useCatalogueCan();
  const [dirty, setDirty] = useState(false);
  if (!order.data) {
    return (
      <p className="text-sm text-gray-600">
        {order.isPending ? 'Loading the order…' : 'Purchase order not found'}
      </p>
    );
  }
  const po = order.data;
  const editable = po.status === 'draft' && may('managePurchasing');
  return (
    <div className="mx-auto max-w-4xl min-w-0 space-y-6">
      <ItemHeading
        name={po.number}
        back={{ to: paths.purchaseOrders.list.getHref(catalogue), label: 'All purchase orders' }}
        badge={<StatusPill status={po.status} />}
        description={
          <>
            {po.supplierName} · expected {formatExpected(po.expectedAt)} ·{' '}
            {formatCount(po.totalQuantity)} {po.totalQuantity === 1 ? 'unit' : 'units'} ·{' '}
            {formatPrice(po.totalCost)}
            {po.sentAt && ` · sent ${formatDateTime(po.sentAt)}`}
          </>
        }
      >
        {po.notes && !editable && (
          <p className="mt-2 text-sm whitespace-pre-line text-gray-700">{po.notes}</p>
        )}
      </ItemHeading>
      <OrderActions order={po} dirty={dirty} />
      {editable ? (
        <DraftEditor key={po.updatedAt} order={po} onDirty={setDirty} />
      ) : (
        <OrderLines order={po} />
      )}
      {isReceivable(po.status) && may('receiveStock') && <ReceivePanel order={po} />}
    </div>
  );
}

/** What can be done with the order, by its status and the user's role. */
function OrderActions({ order, dirty }: { order: PurchaseOrder; dirty: boolean }) {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const may = useCatalogueCan();
  const change = usePurchaseOrderChange(catalogue);
  const download = useDownloadOrder(catalogue);
  const manage = may('managePurchasing');
  const { status } = order;

  const run = (task: () => Promise<unknown>) => void task().catch(notifyError);

  const actions: ReactNode[] = [];
  if (manage && status === 'draft') {
    actions.push(
      <Button
        key="order"
        disabled={dirty || order.lines.length === 0}
        title={dirty ? 'Save the draft first' : undefined}
        onClick={() =>
          run(() =>
            change.mutateAsync({ kind: 'update', id: order.id, body: { status: 'ordered' } }),
          )
        }
      >
        Mark as ordered
      </Button>,
    );
  }
  if (manage && (status === 'draft' || isReceivable(status))) {
    actions.push(
      <Button
        key="cancel"
        variant="danger"
        onClick={() =>
          run(async () => {
            if (
              await confirmAction(
                'Cancel this order?',
                `${order.number} will be closed.`,
                'Yes, cancel it',
              )
            )
              await change.mutateAsync({
                kind: 'update',
                id: order.id,
                body: { status: 'cancelled' },
              });
          })
        }
      >
        Cancel order
      </Button>,
    );
  }
  const receivedNothing = order.lines.every((line) => line.received === 0);
  if (manage && (status === 'draft' || (status === 'cancelled' && receivedNothing))) {
    actions.push(
      <Button
        key="delete"
        variant="danger"
        onClick={() =>
          run(async () => {
            if (
              !(await confirmAction(
                'Delete this order?',
                `${order.number} will be gone.`,
                'Yes, delete it!',
              ))
            )
              return;
            await change.mutateAsync({ kind: 'delete', id: order.id });
            await navigate(paths.purchaseOrders.list.getHref(catalogue));
          })
        }
      >
        {status === 'draft' ? 'Delete draft' : 'Delete order'}
      </Button>,
    );
  }
  if (status !== 'draft') {
    for (const format of ['pdf', 'csv'] as const) {
      actions.push(
        <a
          key={format}
          href={`/api${orderUrl(catalogue, order.id, `.${format}`)}`}
          className="self-center text-sm font-semibold text-indigo-700 hover:underline"
          onClick={(event) => {
            event.preventDefault();
            if (!download.isPending) download.mutate({ order, format });
          }}
        >
          {format.toUpperCase()}
        </a>,
      );
    }
  }
  // Sent once: the server refuses a second mail.
  if (manage && isReceivable(status) && !order.sentAt) {
    actions.push(
      <Button
        key="send"
        variant="secondary"
        busy={change.isPending && change.variables.kind === 'send'}
        busyLabel="Sending..."
        onClick={() => run(() => change.mutateAsync({ kind: 'send', id: order.id }))}
      >
        Send to supplier
      </Button>,
    );
  }
  if (actions.length === 0) return null;
  return <div className="flex flex-wrap gap-3">{actions}</div>;
}

const LINE_COLUMNS = [
  { label: 'Product' },
  { label: 'Supplier SKU' },
  { label: 'Ordered', numeric: true },
  { label: 'Received', numeric: true },
  { label: 'Unit cost', numeric: true },
  { label: 'Total', numeric: true },
];
const numeric = `${tableCell} text-right tabular-nums`;

/** An order's lines as ordered and received (any order but a draft an editor is changing). */
function OrderLines({ order }: { order: PurchaseOrder }) {
  return (
    <Card className="p-0">
      <ScrollRegion label="Lines">
        <table aria-label="Lines" className="min-w-full text-sm">
          <TableHead columns={LINE_COLUMNS} />
          <tbody className="divide-y divide-gray-100">
            {order.lines.map((line) => (
              <tr key={line.productId}>
                <td className={`${tableCell} break-words`}>{line.name ?? 'Deleted product'}</td>
                <td className={`${tableCell} font-mono`}>{line.supplierSku ?? '—'}</td>
                <td className={numeric}>{formatCount(line.quantity)}</td>
                <td className={numeric}>{formatCount(line.received)}</td>
                <td className={numeric}>{formatPrice(line.unitCost)}</td>
                <td className={numeric}>
                  {formatPrice(Math.round(line.unitCost * line.quantity * 100) / 100)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {order.lines.length === 0 && <p className="p-4 text-sm text-gray-600">No lines.</p>}
    </Card>
  );
}

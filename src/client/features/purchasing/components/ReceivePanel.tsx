import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import { LocationSelect } from '@/components/locations/LocationSelect.js';
import { Button } from '@/components/ui/Button.js';
import { CardSection } from '@/components/ui/Card.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { formatCount } from '@/lib/format.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { receiveStock } from '@/lib/stock-change/receipts/receive.js';
import { useExpectedLines } from '@/lib/purchasing/expected.js';
import { QuantityInput } from '@/components/forms/QuantityInput.js';

/**
 * Receiving on a desktop: a quantity typed per line (what is still expected, to start with), into
 * one location, sent as one receipt. More than ordered is accepted; it is said before it goes and
 * in the server's answer. Offline, the receipt waits and is sent once.
 */
export function ReceivePanel({ order }: { order: PurchaseOrder }) {
  const catalogue = useCatalogueRef();
  const queryClient = useQueryClient();
  const lines = useExpectedLines(order);
  const tree = useLocations(catalogue).data ?? [];
  const [chosen, setChosen] = useState<string>();
  const location = tree.find((one) => one.id === chosen) ?? tree.find((one) => one.isDefault);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string>();
  const [error, setError] = useState<string>();
  const quantityOf = (productId: string, expected: number) => typed[productId] ?? String(expected);

  const wanted = lines
    .map((line) => ({ line, quantity: Number(quantityOf(line.productId, line.expected)) }))
    .filter(({ quantity }) => Number.isInteger(quantity) && quantity > 0);
  const over = wanted.filter(({ line, quantity }) => quantity > line.expected);

  const receive = async () => {
    if (!location || wanted.length === 0) return;
    setBusy(true);
    setError(undefined);
    setSaid(undefined);
    try {
      const result = await receiveStock(queryClient, {
        catalogue,
        po: order,
        location,
        source: 'form',
        lines: wanted.map(({ line, quantity }) => ({
          productId: line.productId,
          productName: line.name,
          quantity,
        })),
      });
      const message = result.queued
        ? 'Offline: the receipt will be sent when the connection is back.'
        : result.answer.message;
      setSaid(message);
      notifySuccess(message);
      setTyped({});
    } catch (caught) {
      setError(getErrorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CardSection id="receive" title="Receive" className="space-y-4">
      <p className="mt-1 text-sm text-gray-600">
        Type what came in, or{' '}
        <Link
          to={paths.scan.receiveHref(order.id, catalogue)}
          className="font-medium text-indigo-700 underline"
        >
          receive by scanning
        </Link>
        .
      </p>
      {tree.length > 1 && location && (
        <LocationSelect
          label="Into"
          options={tree}
          value={location.id}
          onChange={setChosen}
          className="max-w-md"
        />
      )}
      <ul aria-label="Quantities received" className="divide-y divide-gray-100">
        {lines.map((line) => (
          <li key={line.productId} className="flex flex-wrap items-center gap-3 py-2">
            <span className="min-w-40 flex-1 break-words text-gray-900">
              {line.name}
              <span className="block text-xs text-gray-600">
                {formatCount(line.received)} of {formatCount(line.ordered)} received ·{' '}
                {formatCount(line.expected)} expected
              </span>
            </span>
            <QuantityInput
              aria-label={`Received of ${line.name}`}
              value={quantityOf(line.productId, line.expected)}
              onChange={(text) => setTyped((all) => ({ ...all, [line.productId]: text }))}
            />
          </li>
        ))}
      </ul>
      {over.length > 0 && (
        <p role="status" className="text-sm font-medium text-amber-800">
          More than ordered:{' '}
          {over
            .map(
              ({ line, quantity }) =>
                `${line.name} (${line.received + quantity} of ${line.ordered})`,
            )
            .join(', ')}
          . It will be received all the same.
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {said && (
        <p role="status" className="text-sm text-gray-800">
          {said}
        </p>
      )}
      <Button
        busy={busy}
        busyLabel="Receiving..."
        disabled={wanted.length === 0 || !location}
        onClick={() => void receive()}
      >
        Receive
      </Button>
    </CardSection>
  );
}

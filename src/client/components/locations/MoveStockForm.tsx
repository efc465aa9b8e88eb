import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/Button.js';
import { inlineControlClasses } from '@/components/ui/Field.js';
import type { CatalogueRef } from '@/lib/catalogue-ref.js';
import { formatUnits } from '@/lib/format.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import type { StockChangeSource } from '@/lib/stock-change/index.js';
import { moveStock } from '@/lib/stock-change/moves/move.js';
import { LocationSelect } from './LocationSelect.js';

/** A product to move, with what it holds where. */
export interface MoveItem {
  id: string;
  name: string;
  places: readonly { locationId: string; quantity: number }[];
}

interface MoveStockFormProps {
  catalogue: CatalogueRef;
  items: readonly MoveItem[];
  locations: readonly { id: string; path: string }[];
  /** Where the stock is taken from at first (a location's page: that location). */
  from?: string | undefined;
  source: StockChangeSource;
  /** After a move was sent or kept to send. */
  onDone?: () => void;
}

const heldAt = (item: MoveItem, locationId: string) =>
  item.places.find((place) => place.locationId === locationId)?.quantity ?? 0;

/** Each product's quantity, all it holds at `from` to begin with. */
const allHeld = (items: readonly MoveItem[], from: string) =>
  Object.fromEntries(items.map((item) => [item.id, String(heldAt(item, from))]));

/**
 * Moves stock of one or many products from one location to another, in one transfer (all lines
 * or none): each product's quantity starts at all it holds there and can be lowered. Offline, the
 * move waits in the stock queue and goes once the connection is back.
 */
export function MoveStockForm({
  catalogue,
  items,
  locations,
  from: initialFrom,
  source,
  onDone,
}: MoveStockFormProps) {
  const queryClient = useQueryClient();
  const firstHeld = locations.find((location) => items.some((item) => heldAt(item, location.id)));
  const [from, setFrom] = useState(initialFrom ?? firstHeld?.id ?? '');
  const [to, setTo] = useState('');
  const [quantities, setQuantities] = useState(() => allHeld(items, from));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const single = items.length === 1 ? items[0] : undefined;
  const here = items.filter((item) => heldAt(item, from) > 0);
  const lines = here.map((item) => ({
    item,
    held: heldAt(item, from),
    quantity: Number(quantities[item.id] ?? ''),
  }));
  const units = lines.reduce(
    (sum, line) => sum + (Number.isInteger(line.quantity) ? line.quantity : 0),
    0,
  );
  const toPath = locations.find((location) => location.id === to)?.path ?? '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = lines.find(
      ({ quantity, held }) => !Number.isInteger(quantity) || quantity < 0 || quantity > held,
    );
    if (!to) return setError('Choose where to move it.');
    if (wrong) return setError(`${wrong.item.name}: 0 to ${wrong.held} can move.`);
    if (units === 0) return setError('Nothing to move.');
    setError(undefined);
    setBusy(true);
    try {
      const result = await moveStock(queryClient, {
        catalogue,
        toPath,
        source,
        lines: lines
          .filter(({ quantity }) => quantity > 0)
          .map(({ item, quantity }) => ({
            productId: item.id,
            productName: item.name,
            from,
            to,
            quantity,
          })),
      });
      notifySuccess(result.queued ? `Move to ${toPath} waiting to be sent` : result.message);
      onDone?.();
    } catch (failure) {
      notifyError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form aria-label="Move stock" noValidate onSubmit={(event) => void submit(event)}>
      <div className="grid gap-3 sm:grid-cols-2">
        <LocationSelect
          label="From"
          options={locations.map((location) => ({
            ...location,
            held: single ? heldAt(single, location.id) : undefined,
          }))}
          value={from}
          onChange={(next) => {
            setFrom(next);
            setQuantities(allHeld(items, next));
            if (next === to) setTo('');
          }}
        />
        <LocationSelect
          label="To"
          none="Choose…"
          options={locations.filter((location) => location.id !== from)}
          value={to}
          onChange={setTo}
        />
      </div>
      <ul aria-label="Quantities to move" className="mt-3 divide-y divide-gray-100">
        {lines.map(({ item, held }) => (
          <li key={item.id} className="flex items-center gap-3 py-2">
            <span className="min-w-0 flex-1 text-sm wrap-anywhere text-gray-900">{item.name}</span>
            <input
              type="text"
              inputMode="numeric"
              aria-label={`Quantity of ${item.name} to move`}
              value={quantities[item.id] ?? ''}
              onChange={(event) =>
                setQuantities((current) => ({ ...current, [item.id]: event.target.value.trim() }))
              }
              className={`${inlineControlClasses} h-10 w-20`}
            />
            <span className="w-16 shrink-0 text-sm text-gray-600">of {held}</span>
          </li>
        ))}
      </ul>
      {here.length < items.length && (
        <p className="mt-2 text-sm text-gray-600">
          {here.length === 0
            ? 'None of it is here.'
            : `${items.length - here.length} of the products have none here.`}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" className="mt-3" busy={busy} busyLabel="Moving..." disabled={!from}>
        {units > 0 ? `Move ${formatUnits(units)}` : 'Move'}
      </Button>
    </form>
  );
}

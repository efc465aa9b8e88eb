import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProductListItem } from '@shared/schemas/products.js';
import { FormFailure } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { SelectField, TextField } from '@/components/ui/Field.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { notifySuccess } from '@/lib/notify.js';
import { findProducts } from '../api/counts.js';
import { useCountLine } from './use-count-line.js';

/** The product typed: the one whose SKU or barcode it is, else the only one matching it. */
function pick(products: ProductListItem[], typed: string) {
  const wanted = typed.trim().toLowerCase();
  const exact = products.filter(
    (product) =>
      product.sku?.toLowerCase() === wanted ||
      product.barcode === typed.trim() ||
      product.name.toLowerCase() === wanted,
  );
  if (exact.length === 1) return exact[0];
  return products.length === 1 ? products[0] : undefined;
}

/**
 * 'Count a product': typed by name, SKU or barcode, at a location of the count's scope, the
 * quantity replacing the line's or added to it (a second box of the same product on the shelf).
 */
export function CountLineForm({
  countId,
  places,
}: {
  countId: string;
  /** The locations lines may be counted at, first the likeliest. */
  places: { id: string; path: string }[];
}) {
  const catalogue = useCatalogueRef();
  const queryClient = useQueryClient();
  const send = useCountLine(countId);
  const [typed, setTyped] = useState('');
  const [quantity, setQuantity] = useState('');
  const [locationId, setLocationId] = useState('');
  const [add, setAdd] = useState(false);
  const [choices, setChoices] = useState<ProductListItem[]>([]);
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const location = places.find((place) => place.id === locationId) ?? places[0];
  const counted = Number(quantity);
  const valid =
    typed.trim() !== '' && quantity.trim() !== '' && Number.isInteger(counted) && counted >= 0;

  const countProduct = async (product: ProductListItem) => {
    if (!location) return;
    const result = await send({ product, location, counted, add });
    notifySuccess(
      result.queued
        ? `${product.name}: waiting to be sent`
        : `${product.name}: ${result.line.counted} counted at ${location.path}`,
    );
    setTyped('');
    setQuantity('');
    setChoices([]);
  };

  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await task();
    } catch (error) {
      setFailure(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-base font-semibold text-gray-900">Count a product</h2>
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          void run(async () => {
            const found = await findProducts(queryClient, catalogue, typed.trim());
            const product = pick(found, typed);
            if (product) return countProduct(product);
            setChoices(found);
            if (found.length === 0) setFailure(`No product matches ${typed.trim()}`);
          });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Product"
            hint="Name, SKU or barcode."
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setChoices([]);
            }}
          />
          <TextField
            label="Quantity"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
          />
        </div>
        <SelectField
          label="At"
          id="count-line-location"
          value={location?.id ?? ''}
          onChange={(event) => setLocationId(event.target.value)}
        >
          {places.map((place) => (
            <option key={place.id} value={place.id}>
              {place.path}
            </option>
          ))}
        </SelectField>
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input
            type="checkbox"
            className="size-4 rounded border-gray-300"
            checked={add}
            onChange={(event) => setAdd(event.target.checked)}
          />
          Add to what the line holds (rather than replace it)
        </label>
        {choices.length > 1 && (
          <fieldset>
            <legend className="text-sm font-medium text-gray-900">Which one?</legend>
            <ul className="mt-2 flex flex-wrap gap-2">
              {choices.map((product) => (
                <li key={product.id}>
                  <Button
                    variant="secondary"
                    disabled={busy || !valid}
                    onClick={() => void run(() => countProduct(product))}
                  >
                    {product.name}
                    {product.sku && ` (${product.sku})`}
                  </Button>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <FormFailure message={failure} />
        <Button type="submit" disabled={!valid || !location} busy={busy} busyLabel="Counting...">
          Count
        </Button>
      </form>
    </Card>
  );
}

import { useId, useRef, useState } from 'react';
import type { FieldError } from '@shared/field-errors.js';
import type { PurchaseOrder } from '@shared/schemas/purchasing/purchase-orders.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { Button } from '@/components/ui/Button.js';
import { CardSection } from '@/components/ui/Card.js';
import { SearchForm } from '@/components/ui/SearchForm.js';
import { inlineControlClasses, TextAreaField, TextField } from '@/components/ui/Field.js';
import { getErrorMessage, getFieldErrors } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { searchProducts } from '@/lib/products/search-products.js';
import { usePurchaseOrderChange } from '../api/purchase-orders.js';
import { QuantityInput } from '@/components/forms/QuantityInput.js';

/** A line as typed: the quantity and unit cost as text until sent. */
interface DraftLine {
  productId: string;
  name: string;
  quantity: string;
  unitCost: string;
}

/** The fields of a line the server may refuse, each shown at its own input. */
type LineField = 'quantity' | 'unitCost';
type LineErrors = Record<string, Partial<Record<LineField, string>>>;

/**
 * A refusal's field errors at the lines they name (`lines.1.quantity`: the second line sent), by
 * product, and the others.
 */
function errorsByLine(errors: FieldError[], sent: DraftLine[]) {
  const byLine: LineErrors = {};
  const rest: FieldError[] = [];
  for (const error of errors) {
    const match = /^lines\.(\d+)\.(quantity|unitCost)$/.exec(error.path);
    const line = match ? sent[Number(match[1])] : undefined;
    if (!match || !line) rest.push(error);
    else (byLine[line.productId] ??= {})[match[2] as LineField] = error.message;
  }
  return { byLine, rest };
}

const linesOf = (order: PurchaseOrder): DraftLine[] =>
  order.lines.map((line) => ({
    productId: line.productId,
    name: line.name ?? 'Deleted product',
    quantity: String(line.quantity),
    unitCost: line.unitCost.toFixed(2),
  }));

/**
 * A draft's lines (product, quantity, unit cost), expected date and notes, saved together with
 * one PATCH; the server checks every rule. Its refusal of a line's quantity or cost shows at that
 * line, whose field takes the focus; any other under the form. A unit cost left empty is the
 * supplier's for the product, else the product's cost.
 */
export function DraftEditor({
  order,
  onDirty,
}: {
  order: PurchaseOrder;
  onDirty: (dirty: boolean) => void;
}) {
  const catalogue = useCatalogueRef();
  const change = usePurchaseOrderChange(catalogue);
  const [lines, setLinesState] = useState(() => linesOf(order));
  const [expectedAt, setExpected] = useState(order.expectedAt?.slice(0, 10) ?? '');
  const [notes, setNotes] = useState(order.notes ?? '');
  const [error, setError] = useState<string>();
  const [lineErrors, setLineErrors] = useState<LineErrors>({});
  const fieldIds = useId();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const fieldId = (productId: string, field: LineField) => `${fieldIds}-${productId}-${field}`;
  /** A line's input, kept to be focused when the server refuses its value. */
  const keep = (productId: string, field: LineField) => (element: HTMLInputElement | null) => {
    if (element) inputs.current.set(fieldId(productId, field), element);
    else inputs.current.delete(fieldId(productId, field));
  };
  /** What a line's input says to assistive technology and the eye about its refused value. */
  const invalid = (productId: string, field: LineField) =>
    lineErrors[productId]?.[field]
      ? { 'aria-invalid': true, 'aria-describedby': `${fieldId(productId, field)}-error` }
      : {};
  const touch = () => onDirty(true);
  const setLines = (next: DraftLine[]) => {
    setLinesState(next);
    touch();
  };
  const edit = (productId: string, field: LineField, value: string) => {
    setLines(
      lines.map((line) => (line.productId === productId ? { ...line, [field]: value } : line)),
    );
    // Changed, the value is no longer the one refused.
    if (lineErrors[productId]?.[field]) {
      const { [field]: _fixed, ...left } = lineErrors[productId];
      setLineErrors({ ...lineErrors, [productId]: left });
    }
  };

  const save = async () => {
    setError(undefined);
    setLineErrors({});
    const sent = lines;
    try {
      await change.mutateAsync({
        kind: 'update',
        id: order.id,
        body: {
          lines: sent.map((line) => ({
            productId: line.productId,
            quantity: Number(line.quantity),
            unitCost: line.unitCost.trim() === '' ? null : line.unitCost.trim(),
          })),
          expectedAt: expectedAt === '' ? null : expectedAt,
          notes: notes.trim() === '' ? null : notes,
        },
      });
      onDirty(false);
    } catch (caught) {
      const { byLine, rest } = errorsByLine(getFieldErrors(caught), sent);
      const first = sent.find((line) => byLine[line.productId]);
      if (!first) return setError(getErrorMessage(caught));
      // Said once, at the line to fix: under the form only what names no line.
      setLineErrors(byLine);
      setError(rest[0]?.message);
      const field = byLine[first.productId]!.quantity ? 'quantity' : 'unitCost';
      inputs.current.get(fieldId(first.productId, field))?.focus();
    }
  };

  return (
    <CardSection id="draft-lines" title="Lines" className="space-y-4">
      {lines.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">No lines yet: add the products to order.</p>
      ) : (
        <ul aria-label="Lines" className="mt-2 divide-y divide-gray-100">
          {lines.map((line) => (
            <li key={line.productId} className="flex flex-wrap items-end gap-3 py-2">
              <span className="min-w-40 flex-1 font-medium break-words text-gray-900">
                {line.name}
              </span>
              <label className="text-sm text-gray-700">
                Quantity
                <QuantityInput
                  ref={keep(line.productId, 'quantity')}
                  min={1}
                  aria-label={`Quantity of ${line.name}`}
                  {...invalid(line.productId, 'quantity')}
                  className="mt-1 block"
                  value={line.quantity}
                  onChange={(text) => edit(line.productId, 'quantity', text)}
                />
              </label>
              <label className="text-sm text-gray-700">
                Unit cost ($)
                <input
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  ref={keep(line.productId, 'unitCost')}
                  aria-label={`Unit cost of ${line.name}`}
                  {...invalid(line.productId, 'unitCost')}
                  className={`mt-1 block w-28 ${inlineControlClasses}`}
                  value={line.unitCost}
                  onChange={(event) => edit(line.productId, 'unitCost', event.target.value)}
                />
              </label>
              <Button
                variant="ghost"
                aria-label={`Remove ${line.name}`}
                onClick={() => setLines(lines.filter((one) => one.productId !== line.productId))}
              >
                Remove
              </Button>
              {(['quantity', 'unitCost'] as const).map(
                (field) =>
                  lineErrors[line.productId]?.[field] && (
                    <p
                      key={field}
                      id={`${fieldId(line.productId, field)}-error`}
                      className="basis-full text-sm text-red-700"
                    >
                      {lineErrors[line.productId]![field]}
                    </p>
                  ),
              )}
            </li>
          ))}
        </ul>
      )}
      <AddProduct
        catalogue={catalogue}
        onAdd={(product) => {
          if (lines.some((line) => line.productId === product.id)) return;
          setLines([
            ...lines,
            { productId: product.id, name: product.name, quantity: '1', unitCost: '' },
          ]);
        }}
      />
      <TextField
        label="Expected"
        type="date"
        className="max-w-xs"
        value={expectedAt}
        onChange={(event) => {
          setExpected(event.target.value);
          touch();
        }}
      />
      <TextAreaField
        label="Notes"
        rows={2}
        value={notes}
        onChange={(event) => {
          setNotes(event.target.value);
          touch();
        }}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <Button busy={change.isPending} busyLabel="Saving..." onClick={() => void save()}>
        Save draft
      </Button>
    </CardSection>
  );
}

/** A product found by name, SKU or barcode, added to the draft with a tap. */
function AddProduct({
  catalogue,
  onAdd,
}: {
  catalogue: string | undefined;
  onAdd: (product: ProductListItem) => void;
}) {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<ProductListItem[]>();
  const [error, setError] = useState<string>();
  const search = async () => {
    setError(undefined);
    try {
      setResults(await searchProducts(catalogue, q.trim()));
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };
  return (
    <div className="space-y-2">
      <SearchForm label="Products to add" onSearch={() => void search()}>
        <TextField
          label="Add product"
          className="min-w-0 flex-1"
          value={q}
          placeholder="Name, SKU or barcode"
          onChange={(event) => setQ(event.target.value)}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </SearchForm>
      {error && <p className="text-sm text-red-700">{error}</p>}
      {results && results.length === 0 && (
        <p className="text-sm text-gray-600">No products found.</p>
      )}
      {results && results.length > 0 && (
        <ul aria-label="Products found" className="space-y-1">
          {results.map((product) => (
            <li key={product.id} className="flex items-center gap-3 text-sm">
              <span className="min-w-0 flex-1 break-words">
                {product.name}
                {product.sku && <span className="text-gray-600"> · {product.sku}</span>}
              </span>
              <Button
                variant="secondary"
                aria-label={`Add ${product.name}`}
                onClick={() => {
                  onAdd(product);
                  setResults(undefined);
                  setQ('');
                }}
              >
                Add
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

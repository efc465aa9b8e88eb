import { useState } from 'react';
import { Link } from 'react-router';
import type { ProductSupplier } from '@shared/schemas/products.js';
import { Button } from '@/components/ui/Button.js';
import { CardSection } from '@/components/ui/Card.js';
import { inlineControlClasses } from '@/components/ui/Field.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { useSaveProductSuppliers, useSuppliers } from '../api/suppliers.js';
import { NamedOptions } from '@/components/controls/NamedOptions.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';

const COLUMNS = [
  { label: 'Supplier' },
  { label: 'SKU' },
  { label: 'Cost', numeric: true },
  { label: 'Preferred', hideLabel: true },
];

/** A row as typed: the cost as text until sent. */
interface Row {
  supplierId: string;
  supplierSku: string;
  cost: string;
  preferred: boolean;
}

const rowsOf = (suppliers: readonly ProductSupplier[]): Row[] =>
  suppliers.map((one) => ({
    supplierId: one.supplierId,
    supplierSku: one.supplierSku ?? '',
    cost: one.cost === null ? '' : one.cost.toFixed(2),
    preferred: one.preferred,
  }));

/**
 * On the product page: whom the product is bought from, with the supplier's SKU and cost, one of
 * them preferred ("Order what's low" orders from it). Editors and above change the list, all of
 * it at once.
 */
export function ProductSuppliers({
  product,
}: {
  product: { id: string; suppliers?: ProductSupplier[] | undefined };
}) {
  const mayEdit = useCatalogueCan()('managePurchasing');
  const [editing, setEditing] = useState(false);
  const suppliers = product.suppliers ?? [];
  return (
    <CardSection id="product-suppliers" title="Suppliers" className="space-y-3">
      {editing ? (
        <SuppliersEditor
          productId={product.id}
          suppliers={suppliers}
          onDone={() => setEditing(false)}
        />
      ) : (
        <>
          {suppliers.length === 0 ? (
            <p className="mt-2 text-sm text-gray-600">No suppliers named.</p>
          ) : (
            <ScrollRegion label="Product suppliers" className="mt-2">
              <table aria-label="Product suppliers" className="min-w-full text-sm">
                <TableHead columns={COLUMNS} />
                <tbody className="divide-y divide-gray-100">
                  {suppliers.map((one) => (
                    <tr key={one.supplierId}>
                      <td className={`${tableCell} break-words`}>{one.name}</td>
                      <td className={`${tableCell} font-mono`}>{one.supplierSku ?? '—'}</td>
                      <td className={`${tableCell} text-right tabular-nums`}>
                        {one.cost === null ? '—' : formatPrice(one.cost)}
                      </td>
                      <td className={tableCell}>
                        {one.preferred && (
                          <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs text-indigo-900">
                            Preferred
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
          {mayEdit && (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit suppliers
            </Button>
          )}
        </>
      )}
    </CardSection>
  );
}

function SuppliersEditor({
  productId,
  suppliers,
  onDone,
}: {
  productId: string;
  suppliers: readonly ProductSupplier[];
  onDone: () => void;
}) {
  const catalogue = useCatalogueRef();
  const known = useSuppliers(catalogue).data ?? [];
  const save = useSaveProductSuppliers(catalogue, productId);
  const [rows, setRows] = useState(() => rowsOf(suppliers));
  const [error, setError] = useState<string>();
  const edit = (index: number, patch: Partial<Row>) =>
    setRows(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const unused = known.filter((one) => !rows.some((row) => row.supplierId === one.id));
  const nameOf = (id: string) => known.find((one) => one.id === id)?.name ?? 'Supplier';

  const submit = async () => {
    setError(undefined);
    try {
      await save.mutateAsync(
        rows.map((row) => ({
          supplierId: row.supplierId,
          supplierSku: row.supplierSku.trim() === '' ? null : row.supplierSku.trim(),
          cost: row.cost.trim() === '' ? null : row.cost.trim(),
          preferred: row.preferred,
        })),
      );
      onDone();
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };

  return (
    <div className="mt-2 space-y-3">
      {known.length === 0 && (
        <p className="text-sm text-gray-600">
          The catalogue has no suppliers yet: add them on the{' '}
          <Link to={paths.suppliers.getHref(catalogue)} className="text-indigo-700 underline">
            suppliers
          </Link>{' '}
          screen.
        </p>
      )}
      <ul aria-label="Product suppliers" className="divide-y divide-gray-100">
        {rows.map((row, index) => {
          const name = nameOf(row.supplierId);
          return (
            <li key={row.supplierId} className="flex flex-wrap items-end gap-3 py-2">
              <span className="min-w-32 flex-1 font-medium break-words">{name}</span>
              <input
                aria-label={`SKU at ${name}`}
                placeholder="Their SKU"
                maxLength={64}
                className={`w-32 ${inlineControlClasses}`}
                value={row.supplierSku}
                onChange={(event) => edit(index, { supplierSku: event.target.value })}
              />
              <input
                aria-label={`Cost at ${name}`}
                placeholder="Cost"
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                className={`w-28 ${inlineControlClasses}`}
                value={row.cost}
                onChange={(event) => edit(index, { cost: event.target.value })}
              />
              <label className="flex items-center gap-1 self-center text-sm">
                <input
                  type="radio"
                  name="preferred-supplier"
                  checked={row.preferred}
                  onChange={() =>
                    setRows(rows.map((one, at) => ({ ...one, preferred: at === index })))
                  }
                />
                Preferred
              </label>
              <Button
                variant="ghost"
                aria-label={`Remove ${name}`}
                onClick={() => setRows(rows.filter((_, at) => at !== index))}
              >
                Remove
              </Button>
            </li>
          );
        })}
      </ul>
      {unused.length > 0 && (
        <label className="block text-sm font-medium text-gray-900">
          Add a supplier
          <select
            className={`mt-1 block max-w-[min(20rem,100%)] ${inlineControlClasses}`}
            value=""
            onChange={(event) => {
              const supplierId = event.target.value;
              if (!supplierId) return;
              setRows([
                ...rows,
                { supplierId, supplierSku: '', cost: '', preferred: rows.length === 0 },
              ]);
            }}
          >
            <option value="">Choose…</option>
            <NamedOptions items={unused} />
          </select>
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-3">
        <Button busy={save.isPending} busyLabel="Saving..." onClick={() => void submit()}>
          Save suppliers
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

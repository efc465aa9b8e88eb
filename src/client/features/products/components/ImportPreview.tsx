import type { ImportPreviewRow } from '@shared/schemas/catalogue.js';
import { ScrollRegion, TableHead, tableCell as cell } from '@/components/controls/Table.js';
import { formatCount, formatPrice } from '@/lib/format.js';

type Optional = 'sku' | 'barcode' | 'tags' | 'cost';

/**
 * The columns of the preview in reading order. The codes, tags and cost show only when the file
 * has them (the report leaves a column out otherwise), so a plain file reads as before.
 */
const COLUMNS: {
  label: string;
  field?: Optional;
  numeric?: boolean;
  className: string;
  value: (row: ImportPreviewRow) => string;
}[] = [
  { label: 'Line', className: 'text-gray-600 tabular-nums', value: (row) => String(row.line) },
  { label: 'Name', className: 'min-w-40 font-medium wrap-anywhere', value: (row) => row.name },
  {
    label: 'SKU',
    field: 'sku',
    className: 'font-mono break-all',
    value: (row) => row.sku ?? '',
  },
  {
    label: 'Barcode',
    field: 'barcode',
    className: 'font-mono whitespace-nowrap',
    value: (row) => row.barcode ?? '',
  },
  {
    label: 'Tags',
    field: 'tags',
    className: 'min-w-24 wrap-anywhere text-gray-700',
    value: (row) => (row.tags ?? []).join(', '),
  },
  {
    label: 'Price',
    numeric: true,
    className: 'text-right whitespace-nowrap tabular-nums',
    value: (row) => formatPrice(row.price),
  },
  {
    label: 'Cost',
    field: 'cost',
    numeric: true,
    className: 'text-right whitespace-nowrap tabular-nums',
    value: (row) => (row.cost == null ? '' : formatPrice(row.cost)),
  },
  {
    label: 'Stock',
    numeric: true,
    className: 'text-right tabular-nums',
    value: (row) => formatCount(row.stock),
  },
];

/** The first valid rows as they will be stored: every field the import writes. */
export function ImportPreview({ rows }: { rows: ImportPreviewRow[] }) {
  const columns = COLUMNS.filter(
    ({ field }) => field === undefined || rows.some((row) => row[field] !== undefined),
  );
  return (
    <ScrollRegion labelledBy="import-preview" className="rounded-xl ring-1 ring-gray-200">
      <table className="w-full text-left text-sm">
        <TableHead columns={[...columns, { label: 'Description' }]} />
        <tbody className="divide-y divide-gray-200 text-gray-900">
          {rows.map((row) => (
            <tr key={row.line}>
              {columns.map(({ label, className, value }) => (
                <td key={label} className={`${cell} ${className}`}>
                  {value(row)}
                </td>
              ))}
              <td className={`${cell} min-w-56 text-gray-700`}>
                <span className="line-clamp-2 wrap-anywhere">{row.description}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

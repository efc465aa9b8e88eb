import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { paths } from '@/lib/paths.js';

/** A cell of figures: right-aligned, with digits of one width so that they line up. */
export const numeric = `${tableCell} text-right tabular-nums`;

/** A product's name, linking to it in this catalogue. */
function ProductLink({ id, name }: { id: string; name: string }) {
  const catalogue = useCatalogueRef();
  return (
    <Link
      to={paths.products.details.getHref(id, catalogue)}
      className="font-medium break-words text-gray-900 hover:text-indigo-700 hover:underline"
    >
      {name}
    </Link>
  );
}

interface Column {
  label: string;
  numeric?: boolean;
}

/**
 * A report's products as a table: the product's name (a link to it) and then `columns`, whose
 * cells `cells` gives for each product; `empty` when there is none.
 */
export function ProductTable<P extends { id: string; name: string }>({
  products,
  empty,
  label,
  columns,
  cells,
}: {
  products: P[];
  empty: string;
  label: string;
  columns: Column[];
  cells: (product: P) => ReactNode[];
}) {
  if (products.length === 0) return <p className="text-sm text-gray-600">{empty}</p>;
  return (
    <ScrollRegion label={label}>
      <table className="min-w-full text-sm">
        <TableHead columns={[{ label: 'Product' }, ...columns]} />
        <tbody className="divide-y divide-gray-100">
          {products.map((product) => (
            <tr key={product.id}>
              <td className={tableCell}>
                <ProductLink id={product.id} name={product.name} />
              </td>
              {cells(product).map((cell, index) => (
                <td
                  key={columns[index]!.label}
                  className={columns[index]!.numeric ? numeric : tableCell}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

import type { ProductSort } from '@shared/constants.js';

interface SortHeaderProps {
  label: string;
  /** The list's order that sorts this column upwards. */
  ascending: ProductSort;
  /** And downwards, where the API has it. */
  descending?: ProductSort;
  sort: ProductSort;
  onSort: (sort: ProductSort) => void;
}

/**
 * A column header that sorts the table: aria-sort says how it is sorted now; a click sorts it
 * upwards, and a second one downwards.
 */
export function SortHeader({ label, ascending, descending, sort, onSort }: SortHeaderProps) {
  const direction =
    sort === ascending ? 'ascending' : sort === descending ? 'descending' : undefined;
  const next = direction === 'ascending' && descending ? descending : ascending;
  return (
    <th scope="col" aria-sort={direction ?? 'none'} className="px-3 py-2 align-middle">
      <button
        type="button"
        onClick={() => onSort(next)}
        className="-mx-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 font-semibold hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {label}
        <span aria-hidden="true" className={direction ? 'text-indigo-700' : 'text-gray-400'}>
          {direction === 'descending' ? '↓' : direction === 'ascending' ? '↑' : '↕'}
        </span>
      </button>
    </th>
  );
}

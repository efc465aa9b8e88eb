import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface ScrollRegionProps {
  /** Names the region: the label, or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A wide table's box, which scrolls sideways on a narrow screen; it takes the focus, so that a
 * keyboard can scroll it too.
 */
export function ScrollRegion({ label, labelledBy, className = '', children }: ScrollRegionProps) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-labelledby={labelledBy}
      tabIndex={0}
      className={`overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 ${className}`}
    >
      {children}
    </div>
  );
}

/** The cells of the app's small tables: a column's padding, and its headers' weight. */
export const tableCell = 'px-3 py-2 align-top';

/**
 * A row's first cell: what the row is (a count, an order), linked to its page. `children` follow
 * the link (a note such as "Blind"); `nowrap` keeps a short code such as PO-0001 whole.
 */
export function LinkCell({
  to,
  text,
  nowrap = false,
  children,
}: {
  to: string;
  text: string;
  nowrap?: boolean;
  children?: ReactNode;
}) {
  return (
    <td className={tableCell}>
      <Link
        to={to}
        className={`font-medium text-indigo-700 hover:underline ${nowrap ? 'whitespace-nowrap' : 'break-words'}`}
      >
        {text}
      </Link>
      {children}
    </td>
  );
}

/**
 * A table's header row: the column names, numbers' columns aligned right. A column whose cells say
 * what they are (a "Preferred" badge) is named for assistive technology alone.
 */
export function TableHead({
  columns,
}: {
  columns: { label: string; numeric?: boolean; hideLabel?: boolean }[];
}) {
  return (
    <thead className="bg-gray-50 text-gray-700">
      <tr>
        {columns.map(({ label, numeric, hideLabel }) => (
          <th
            key={label}
            scope="col"
            className={`${tableCell} font-semibold whitespace-nowrap ${numeric ? 'text-right' : ''}`}
          >
            {hideLabel ? <span className="sr-only">{label}</span> : label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

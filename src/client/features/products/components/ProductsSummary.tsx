import type { ProductSummary } from '@shared/schemas/catalogue.js';
import { formatCount, formatPrice } from '@/lib/format.js';

interface ProductsSummaryProps {
  /** Undefined while it loads or when it could not be read. */
  summary: ProductSummary | undefined;
  /** A new search or filter's figures are on their way: the old ones are dimmed. */
  stale: boolean;
  /** The list is filtered by a location: the figures are what it (and those under it) holds. */
  here?: boolean | undefined;
}

/**
 * The figures of the products the list's search and filter select, beside their count (said once,
 * before them): their units, and what the stock is worth (cost × stock when costs are set, else
 * price × stock; exact to the cent, from the server). One line on a phone too: there the labels
 * drop their first word ('Units', 'Value at price'). It arrives with the list's first page, so
 * nothing moves when it does. Filtered by a location, the units and the value are those held
 * there, and the labels say so ('here').
 */
export function ProductsSummary({ summary, stale, here }: ProductsSummaryProps) {
  // At cost when any product of the selection has one, at price otherwise: the label says which.
  const atCost = summary?.valueAtCost !== undefined;
  const where = here ? ' here' : '';
  // [first word, hidden on a phone; the rest of the label; the figure]
  const figures = [
    ['Total', `units${where}`, summary && formatCount(summary.units)],
    [
      'Stock',
      `value${where} ${atCost ? 'at cost' : 'at price'}`,
      summary && formatPrice(summary.valueAtCost ?? summary.value),
    ],
  ] as const;
  return (
    <dl
      aria-busy={stale || undefined}
      className={`flex flex-wrap gap-x-4 gap-y-1 text-sm transition-opacity ${stale ? 'opacity-60' : ''}`}
    >
      {figures.map(([first, rest, value]) => (
        <div key={rest} className="flex gap-1.5">
          <dt className="whitespace-nowrap text-gray-600 max-sm:first-letter:uppercase">
            <span className="max-sm:hidden">{first} </span>
            {rest}
          </dt>
          <dd className="font-semibold text-gray-900 tabular-nums">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

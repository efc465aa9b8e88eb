import type { ProductSummary } from '@shared/schemas/catalogue.js';
import { formatCount, formatPrice } from '@/lib/format.js';

interface ProductsSummaryProps {
  /** Undefined while it loads or when it could not be read. */
  summary: ProductSummary | undefined;
  /** A new search or filter's figures are on their way: the old ones are dimmed. */
  stale: boolean;
}

/**
 * The figures of the products the list's search and filter select: how many, their units, and
 * what the stock is worth (price × stock, exact to the cent, from the server). Three fixed cells:
 * new figures never move what is below.
 */
export function ProductsSummary({ summary, stale }: ProductsSummaryProps) {
  const figures = [
    ['Products', summary && formatCount(summary.count)],
    ['Total units', summary && formatCount(summary.units)],
    ['Stock value', summary && formatPrice(summary.value)],
  ] as const;
  return (
    <dl
      aria-busy={stale || undefined}
      className={`grid grid-cols-3 divide-x sm:max-w-2xl divide-gray-200 rounded-xl bg-white shadow-sm ring-1 ring-gray-200 transition-opacity ${stale ? 'opacity-60' : ''}`}
    >
      {figures.map(([label, value]) => (
        <div key={label} className="min-w-0 px-3 py-2 sm:px-4">
          <dt className="truncate text-xs font-medium text-gray-600">{label}</dt>
          <dd className="text-sm font-semibold wrap-anywhere text-gray-900 tabular-nums sm:text-base">
            {value ?? '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

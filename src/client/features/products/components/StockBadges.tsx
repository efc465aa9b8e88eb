import { LOW_STOCK_THRESHOLD } from '@shared/constants.js';
import { formatUnits } from '@/lib/format.js';

// One line always, never squeezed by a long name beside it.
const pill =
  'inline-flex shrink-0 items-center rounded-md px-2 py-1 text-xs font-medium whitespace-nowrap ring-1 ring-inset';

/** Above 10 units the count is green, otherwise yellow. */
export function StockCount({ stock }: { stock: number }) {
  const tone =
    stock > LOW_STOCK_THRESHOLD
      ? 'bg-green-50 text-green-800 ring-green-600/20'
      : 'bg-yellow-50 text-yellow-800 ring-yellow-600/30';
  return <span className={`${pill} ${tone}`}>{formatUnits(stock)}</span>;
}

/** 'In stock' above 0 units, 'Out of Stock' at 0. */
export function AvailabilityBadge({ stock }: { stock: number }) {
  return stock > 0 ? (
    <span className={`${pill} bg-indigo-50 text-indigo-800 ring-indigo-600/20`}>In stock</span>
  ) : (
    <span className={`${pill} bg-red-700 text-white ring-red-700`}>Out of Stock</span>
  );
}

import { LOW_STOCK_THRESHOLD } from '@shared/constants.js';
import { formatUnits } from '@/lib/format.js';

/** The three states a product's stock is in: the list's filters use the same words. */
export type StockState = 'in' | 'low' | 'out';

export const stockStateOf = (stock: number): StockState =>
  stock <= 0 ? 'out' : stock <= LOW_STOCK_THRESHOLD ? 'low' : 'in';

/**
 * One label and one colour per state, wherever a state is shown: green above the low-stock
 * threshold, yellow at or below it, red at 0. The units take their state's colour, so the count is
 * green above 10 and yellow from 10 down to 1.
 */
export const STOCK_STATES = {
  in: {
    label: 'In stock',
    text: 'text-green-800',
    pill: 'bg-green-50 text-green-800 ring-green-600/20',
    dot: 'bg-green-600',
  },
  low: {
    label: 'Low stock',
    text: 'text-yellow-800',
    pill: 'bg-yellow-50 text-yellow-800 ring-yellow-600/30',
    dot: 'bg-yellow-500',
  },
  out: {
    label: 'Out of Stock',
    text: 'text-red-700',
    pill: 'bg-red-50 text-red-700 ring-red-600/20',
    dot: 'bg-red-600',
  },
} as const satisfies Record<StockState, { label: string; text: string; pill: string; dot: string }>;

// One line always, never squeezed by a long name beside it.
const pill =
  'inline-flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset';

/** The state as a pill: 'In stock', 'Low stock' or 'Out of Stock', in its colour. */
function StockStatePill({ stock }: { stock: number }) {
  const state = STOCK_STATES[stockStateOf(stock)];
  return <span className={`${pill} ${state.pill}`}>{state.label}</span>;
}

/** The units in the state's colour: '25 units' green, '4 units' yellow, '0 units' red. */
export function StockUnits({ stock, className = '' }: { stock: number; className?: string }) {
  const state = STOCK_STATES[stockStateOf(stock)];
  return (
    <span className={`font-medium whitespace-nowrap tabular-nums ${state.text} ${className}`}>
      {formatUnits(stock)}
    </span>
  );
}

/**
 * A listed product's stock as one statement: its state, then its units, in one colour
 * ('In stock 25 units'). The list's card and the table show it the same way.
 */
export function StockStatus({ stock }: { stock: number }) {
  return (
    <span data-stock-status="" className="inline-flex items-center gap-1.5 text-xs sm:text-sm">
      <StockStatePill stock={stock} />
      <StockUnits stock={stock} />
    </span>
  );
}

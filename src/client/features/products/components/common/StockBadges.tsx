import { LOW_STOCK_THRESHOLD } from '@shared/constants.js';
import { formatUnits } from '@/lib/format.js';

/** The three states a product's stock is in: the list's filters use the same words. */
export type StockState = 'in' | 'low' | 'out';

export const stockStateOf = (stock: number): StockState =>
  stock <= 0 ? 'out' : stock <= LOW_STOCK_THRESHOLD ? 'low' : 'in';

/**
 * One label and one colour per state, wherever a state is shown: green above the low-stock
 * threshold, yellow at or below it, red at 0. A low product keeps the words every product in stock
 * carries ('In stock') and adds 'low', so the list's 'Low stock' filter is written on it too. The
 * units are green above 10 and yellow otherwise, 0 included.
 */
export const STOCK_STATES = {
  in: {
    label: 'In stock',
    note: '',
    units: 'text-green-800',
    text: 'text-green-800',
    pill: 'bg-green-50 text-green-800 ring-green-600/20',
    dot: 'bg-green-600',
  },
  low: {
    label: 'In stock',
    note: 'low',
    units: 'text-yellow-800',
    text: 'text-yellow-800',
    pill: 'bg-yellow-50 text-yellow-800 ring-yellow-600/30',
    dot: 'bg-yellow-500',
  },
  out: {
    label: 'Out of Stock',
    note: '',
    units: 'text-yellow-800',
    text: 'text-red-700',
    pill: 'bg-red-50 text-red-700 ring-red-600/20',
    dot: 'bg-red-600',
  },
} as const satisfies Record<
  StockState,
  { label: string; note: string; units: string; text: string; pill: string; dot: string }
>;

/** 'In stock', 'In stock · low' or 'Out of Stock': the label in a span of its own. */
function StockStateWords({ state }: { state: StockState }) {
  const { label, note } = STOCK_STATES[state];
  return (
    <>
      <span>{label}</span>
      {note && <span> · {note}</span>}
    </>
  );
}

// One line always, never squeezed by a long name beside it.
const pill =
  'inline-flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset';

/** The state as a pill: 'In stock', 'In stock · low' or 'Out of Stock', in its colour. */
function StockStatePill({ stock }: { stock: number }) {
  const state = stockStateOf(stock);
  return (
    <span className={`${pill} ${STOCK_STATES[state].pill}`}>
      <StockStateWords state={state} />
    </span>
  );
}

/** The units: '25 units' green, '4 units' and '0 units' yellow. */
export function StockUnits({ stock, className = '' }: { stock: number; className?: string }) {
  const state = STOCK_STATES[stockStateOf(stock)];
  return (
    <span className={`font-medium whitespace-nowrap tabular-nums ${state.units} ${className}`}>
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

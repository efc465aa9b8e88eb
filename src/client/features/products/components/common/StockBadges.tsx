import { effectiveReorderPoint, isToReorder } from '@shared/reorder.js';
import { formatUnits } from '@/lib/format.js';
import { useCatalogueReorderPoint } from '../use-catalogue-reorder-point.js';

/** The three states a product's stock is in: the list's filters use the same words. */
export type StockState = 'in' | 'low' | 'out';

/**
 * Low is one notion everywhere: at or below the reorder point that applies (the product's own, else
 * its catalogue's, 10 unless changed: the spec's threshold), the list's 'To reorder' filter.
 */
const stockStateOf = (stock: number, reorderPoint: number): StockState =>
  stock <= 0 ? 'out' : isToReorder(stock, null, reorderPoint) ? 'low' : 'in';

/** A product's state, with its catalogue's reorder point where it has none of its own. */
export function useStockState(product: { stock: number; reorderPoint?: number | null }) {
  const cataloguePoint = useCatalogueReorderPoint();
  return stockStateOf(product.stock, effectiveReorderPoint(product.reorderPoint, cataloguePoint));
}

/**
 * One label and one colour per state, wherever a state is shown: green above the reorder point,
 * yellow at or below it, red at 0. A low product keeps the words every product in stock carries
 * ('In stock') and adds 'to reorder', the name of the list's filter that shows it. The units are
 * green above the point and yellow otherwise, 0 included.
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
    note: 'to reorder',
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

/** 'In stock', 'In stock · to reorder' or 'Out of Stock': the label in a span of its own. */
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

/** The state as a pill: 'In stock', 'In stock · to reorder' or 'Out of Stock', in its colour. */
function StockStatePill({ state }: { state: StockState }) {
  return (
    <span className={`${pill} ${STOCK_STATES[state].pill}`}>
      <StockStateWords state={state} />
    </span>
  );
}

/** The units: '25 units' green, '4 units' and '0 units' yellow (at or below the point). */
export function StockUnits({
  stock,
  state: stateName,
  className = '',
}: {
  stock: number;
  state: StockState;
  className?: string;
}) {
  const state = STOCK_STATES[stateName];
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
export function StockStatus({
  product,
}: {
  product: { stock: number; reorderPoint?: number | null };
}) {
  const state = useStockState(product);
  return (
    <span
      data-stock-status=""
      data-stock-state={state}
      className="inline-flex items-center gap-1.5 text-xs sm:text-sm"
    >
      <StockStatePill state={state} />
      <StockUnits stock={product.stock} state={state} />
    </span>
  );
}

import { LOW_STOCK_THRESHOLD, type StockFilter } from '@shared/constants.js';
import { Segmented } from '@/components/controls/Segmented.js';

// The products' own words for their states ('Low stock', 'Out of Stock'), the range spelt out.
const FILTERS: { value: StockFilter | undefined; label: string; detail?: string }[] = [
  { value: undefined, label: 'All' },
  { value: 'low', label: 'Low stock', detail: `(1–${LOW_STOCK_THRESHOLD})` },
  { value: 'out', label: 'Out of Stock' },
  // At or below each product's reorder point (its own, else its catalogue's).
  { value: 'reorder', label: 'To reorder' },
];

interface StockFilterTabsProps {
  value: StockFilter | undefined;
  onChange: (value: StockFilter | undefined) => void;
  /** How many products each tab shows (All, Low, Out, To reorder), where known. */
  counts: readonly (number | undefined)[];
}

/**
 * 'All / Low stock (1–10) / Out of Stock / To reorder', each with its count; the choice lives in
 * the URL (?stock=low|out|reorder).
 */
export function StockFilterTabs({ value, onChange, counts }: StockFilterTabsProps) {
  const options = FILTERS.map((filter, index) => ({ ...filter, count: counts[index] }));
  return <Segmented label="Stock filter" options={options} value={value} onChange={onChange} />;
}

import type { StockFilter } from '@shared/constants.js';
import { Segmented } from '@/components/controls/Segmented.js';

// The products' own words for their states ('In stock · to reorder', 'Out of Stock'). Low is one
// notion: at or below each product's reorder point (its own, else its catalogue's), which the
// badges follow too; the API's fixed range (`stock=low`, 1 to 10) has no tab of its own.
const FILTERS: { value: StockFilter | undefined; label: string; detail?: string }[] = [
  { value: undefined, label: 'All' },
  { value: 'reorder', label: 'To reorder' },
  { value: 'out', label: 'Out of Stock' },
];

interface StockFilterTabsProps {
  value: StockFilter | undefined;
  onChange: (value: StockFilter | undefined) => void;
  /** How many products each tab shows (All, To reorder, Out), where known. */
  counts: readonly (number | undefined)[];
}

/**
 * 'All / To reorder / Out of Stock', each with its count; the choice lives in the URL
 * (?stock=reorder|out).
 */
export function StockFilterTabs({ value, onChange, counts }: StockFilterTabsProps) {
  const options = FILTERS.map((filter, index) => ({ ...filter, count: counts[index] }));
  return <Segmented label="Stock filter" options={options} value={value} onChange={onChange} />;
}

import { LOW_STOCK_THRESHOLD, type StockFilter } from '@shared/constants.js';
import { Segmented } from '@/components/ui/Segmented.js';

const FILTERS: { value: StockFilter | undefined; label: string }[] = [
  { value: undefined, label: 'All' },
  { value: 'low', label: `Low stock (1–${LOW_STOCK_THRESHOLD})` },
  { value: 'out', label: 'Out of stock' },
];

interface StockFilterTabsProps {
  value: StockFilter | undefined;
  onChange: (value: StockFilter | undefined) => void;
}

/** 'All / Low stock (1–10) / Out of stock'; the choice lives in the URL (?stock=low|out). */
export function StockFilterTabs({ value, onChange }: StockFilterTabsProps) {
  return <Segmented label="Stock filter" options={FILTERS} value={value} onChange={onChange} />;
}

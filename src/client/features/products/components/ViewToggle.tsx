import { Segmented } from '@/components/ui/Segmented.js';

export type ListView = 'cards' | 'table';

const VIEWS = [
  { value: 'cards', label: 'Cards' },
  { value: 'table', label: 'Table' },
] as const;

interface ViewToggleProps {
  value: ListView;
  onChange: (value: ListView) => void;
}

/** 'Cards' / 'Table', for wide screens only (the page decides when to show it). */
export function ViewToggle({ value, onChange }: ViewToggleProps) {
  return <Segmented label="View" options={VIEWS} value={value} onChange={onChange} />;
}

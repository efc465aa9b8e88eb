import { Segmented } from '@/components/controls/Segmented.js';

export type ListView = 'cards' | 'table';

const VIEWS = [
  { value: 'cards', label: 'Cards' },
  { value: 'table', label: 'Table' },
] as const;

const VIEW_KEY = 'productListView';

/**
 * The view last chosen on this browser: a desktop user who works in the table finds it again on
 * the next visit, whatever link brought them. Storage may be off (private modes): cards then.
 */
export function rememberedView(): ListView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'cards';
  } catch {
    return 'cards';
  }
}

export function rememberView(view: ListView) {
  try {
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    // Not remembered: the URL still says which view this page shows.
  }
}

interface ViewToggleProps {
  value: ListView;
  onChange: (value: ListView) => void;
}

/** 'Cards' / 'Table', for wide screens only (the page decides when to show it). */
export function ViewToggle({ value, onChange }: ViewToggleProps) {
  return <Segmented label="View" options={VIEWS} value={value} onChange={onChange} />;
}

import { useId } from 'react';
import { controlClasses } from '@/components/ui/Field.js';

/** A location as a picker lists it: its path, and what it holds where that matters. */
interface LocationOption {
  id: string;
  path: string;
  /** Shown after the path: '5 here'. */
  held?: number | undefined;
}

interface LocationSelectProps {
  label: string;
  options: readonly LocationOption[];
  value: string;
  onChange: (id: string) => void;
  /** A first choice meaning none ('All locations'); without it one must be chosen. */
  none?: string | undefined;
  className?: string | undefined;
}

/**
 * A location picked by its path ('Warehouse / Aisle 3 / Bin 4'): the phone's own list, which
 * suits a thumb and a long tree better than anything drawn in the page.
 */
export function LocationSelect({
  label,
  options,
  value,
  onChange,
  none,
  className,
}: LocationSelectProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`mt-1 ${controlClasses}`}
      >
        {none !== undefined && <option value="">{none}</option>}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.held === undefined ? option.path : `${option.path} (${option.held} here)`}
          </option>
        ))}
      </select>
    </div>
  );
}

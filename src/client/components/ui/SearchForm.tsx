import type { ReactNode } from 'react';

/**
 * A search landmark of fields in a row, bottoms aligned (or as `className` lays them out):
 * submitting it (Enter, or its button) runs `onSearch` in place of a page load.
 */
export function SearchForm({
  label,
  onSearch,
  className = 'flex items-end gap-3',
  children,
}: {
  label: string;
  onSearch: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      role="search"
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
    >
      {children}
    </form>
  );
}

import type { ReactNode } from 'react';

/**
 * A search landmark of fields in a row, bottoms aligned: submitting it (Enter, or its button)
 * runs `onSearch` in place of a page load.
 */
export function SearchForm({
  label,
  onSearch,
  children,
}: {
  label: string;
  onSearch: () => void;
  children: ReactNode;
}) {
  return (
    <form
      role="search"
      aria-label={label}
      className="flex items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
    >
      {children}
    </form>
  );
}

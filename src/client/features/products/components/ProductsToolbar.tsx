import { useCallback, useEffect, useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useNavigate } from 'react-router';
import { PRODUCT_SORTS, type ProductSort } from '@shared/constants.js';
import { controlClasses } from '@/components/ui/Field.js';
import { SearchForm } from '@/components/ui/SearchForm.js';
import { notifyError } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { ignoredScanText } from '@/lib/keyboard-burst.js';
import { signalScan } from '@/lib/scan-signal.js';
import { useKeyboardScanner } from '@/lib/use-keyboard-scanner.js';
import { findProductByCode } from '../api/find-product-by-code.js';

const SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name (A to Z)',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  'stock-asc': 'Stock: low to high',
  'stock-desc': 'Stock: high to low',
};

const SEARCH_DELAY_MS = 300;

interface ProductsToolbarProps {
  q: string;
  sort: ProductSort;
  onSearch: (q: string) => void;
  onSort: (sort: ProductSort) => void;
}

/** Search (applied as the user pauses typing) and sort; the state itself lives in the URL. */
export function ProductsToolbar({ q, sort, onSearch, onSort }: ProductsToolbarProps) {
  const catalogue = useCatalogueRef();
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  // The searches this box asked for and the URL has not shown yet, oldest first: one reaching
  // the URL while the user typed on is theirs, and must not take back what they typed since.
  const [asked, setAsked] = useState<string[]>([]);
  const search = useCallback(
    (value: string) => {
      setAsked((earlier) => [...earlier, value]);
      onSearch(value);
    },
    [onSearch],
  );
  // The URL changed under us (a link, "Clear search"): show its search.
  if (q !== shownQ) {
    setShownQ(q);
    const mine = asked.lastIndexOf(q);
    setAsked(mine === -1 ? [] : asked.slice(mine + 1));
    if (mine === -1 && q !== text.trim()) setText(q);
  }

  // A keyboard scanner's code opens its product instead of searching as text. A code no product
  // has goes to the scan screen, which offers to create one, unless it was typed into the search:
  // someone typing fast there is searching. While a code is looked up, the box does not search for
  // it as text: that search would take the user back to the list from the product the lookup opens.
  const navigate = useNavigate();
  const [lookingUp, setLookingUp] = useState(false);
  const onCode = (code: string) => {
    const inSearch = document.activeElement?.id === 'product-search';
    signalScan();
    setLookingUp(true);
    void findProductByCode(catalogue, code)
      .then(
        (id) => {
          if (id) {
            setText(q);
            void navigate(paths.products.details.getHref(id, catalogue));
          } else if (inSearch) search(code);
          else void navigate(paths.scan.getHref(code, catalogue));
        },
        // The code could not be looked up (offline, server away): said, never dropped silently.
        (error: unknown) => (inSearch ? search(code) : notifyError(error)),
      )
      .finally(() => setLookingUp(false));
  };
  useKeyboardScanner({
    onCode,
    onIgnored: (typed) => notifyError(new Error(ignoredScanText(typed))),
  });

  useEffect(() => {
    if (lookingUp || text.trim() === q) return;
    const timer = setTimeout(() => search(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [lookingUp, text, q, search]);

  return (
    // On a phone the sort goes under the search, its label beside it: side by side, neither the
    // placeholder nor the longer sort labels ('Price: high to low') fit.
    <SearchForm
      label="Products"
      onSearch={() => search(text.trim())}
      className="flex flex-col gap-2 sm:flex-row sm:items-end sm:gap-3"
    >
      <div className="min-w-0 flex-1">
        <label htmlFor="product-search" className="block text-sm font-medium text-gray-900">
          Search
        </label>
        <input
          id="product-search"
          data-keyboard-scanner=""
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Name or description"
          className={`mt-1.5 h-10 sm:mt-2 ${controlClasses}`}
        />
      </div>
      <div className="flex items-center gap-3 sm:block sm:w-56 sm:shrink-0">
        <label
          htmlFor="product-sort"
          className="shrink-0 text-sm font-medium text-gray-900 sm:block"
        >
          Sort by
        </label>
        <select
          id="product-sort"
          value={sort}
          onChange={(event) => onSort(event.target.value as ProductSort)}
          className={`h-10 min-w-0 sm:mt-2 ${controlClasses} pr-8`}
        >
          {PRODUCT_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
    </SearchForm>
  );
}

import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { ProductSort, StockFilter } from '@shared/constants.js';
import { listParamsOf } from '../api/get-products.js';
import { rememberedView, rememberView, type ListView } from './ViewToggle.js';

/**
 * The list's state as its URL holds it: ?q= (search), &sort=, &stock=low|out, &tag= and
 * &view=table. Without a view in the URL, the one last chosen on this browser.
 * Defaults stay out of the URL; every change replaces the entry (typing a search must not fill
 * the history), and keeps the rest.
 */
export function useListUrl() {
  const [search, setSearch] = useSearchParams();
  const params = listParamsOf(search);
  const view: ListView = search.get('view') === 'table' ? 'table' : rememberedView();

  const setParam = useCallback(
    (key: 'q' | 'sort' | 'stock' | 'tag' | 'view', value: string | undefined) =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === undefined) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );

  return {
    params,
    view,
    onSearch: useCallback((q: string) => setParam('q', q || undefined), [setParam]),
    onSort: useCallback(
      (sort: ProductSort) => setParam('sort', sort === 'newest' ? undefined : sort),
      [setParam],
    ),
    onStock: useCallback((stock: StockFilter | undefined) => setParam('stock', stock), [setParam]),
    onTag: useCallback((tag: string | undefined) => setParam('tag', tag), [setParam]),
    onView: useCallback(
      (next: ListView) => {
        rememberView(next);
        setParam('view', next === 'table' ? next : undefined);
      },
      [setParam],
    ),
  };
}

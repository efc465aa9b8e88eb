import { useCallback, useLayoutEffect, useRef } from 'react';
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

  // React Router hands a functional update the params of the last render, so a second change
  // asked for before the screen draws again (a sort, then the search's timer) would drop the
  // first. Each change starts from the last one asked for until the URL shows it; a URL that
  // shows none of them came from elsewhere (a link) and is the new start.
  const asked = useRef<string[]>([]);
  const latest = useRef(search.toString());
  useLayoutEffect(() => {
    latest.current = search.toString();
    const mine = asked.current.lastIndexOf(latest.current);
    asked.current = mine === -1 ? [] : asked.current.slice(mine + 1);
  }, [search]);

  const setParam = useCallback(
    (key: 'q' | 'sort' | 'stock' | 'tag' | 'location' | 'view', value: string | undefined) => {
      const next = new URLSearchParams(asked.current.at(-1) ?? latest.current);
      if (value === undefined) next.delete(key);
      else next.set(key, value);
      asked.current.push(next.toString());
      setSearch(next, { replace: true });
    },
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
    onLocation: useCallback((id: string | undefined) => setParam('location', id), [setParam]),
    onView: useCallback(
      (next: ListView) => {
        rememberView(next);
        setParam('view', next === 'table' ? next : undefined);
      },
      [setParam],
    ),
  };
}

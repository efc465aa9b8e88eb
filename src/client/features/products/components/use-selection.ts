import { useCallback, useMemo, useRef, useState } from 'react';

/**
 * The products chosen for a bulk action, among `ids` (those shown, in order). A plain toggle sets
 * the anchor; a range toggle gives every product from the anchor to this one the new state of
 * this one (as mail apps do). Chosen products that are no longer shown (deleted, loaded out of
 * view) drop out of the selection, and a new `scope` (another search or filter) starts afresh.
 */
export function useSelection(ids: string[], scope: string) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [shownScope, setShownScope] = useState(scope);
  const anchor = useRef<string | null>(null);
  if (scope !== shownScope) {
    setShownScope(scope);
    setChosen(new Set());
  }

  const selected = useMemo(() => {
    const shown = new Set(ids);
    return new Set([...chosen].filter((id) => shown.has(id)));
  }, [chosen, ids]);

  const toggle = useCallback(
    (id: string, range: boolean) => {
      const from = anchor.current === null ? -1 : ids.indexOf(anchor.current);
      anchor.current = id;
      setChosen((current) => {
        const next = new Set(current);
        const on = !current.has(id);
        const to = ids.indexOf(id);
        const span =
          range && from !== -1 ? ids.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
        for (const each of span) {
          if (on) next.add(each);
          else next.delete(each);
        }
        return next;
      });
    },
    [ids],
  );

  const setAll = useCallback(
    (on: boolean) => {
      setChosen(on ? new Set(ids) : new Set());
      anchor.current = null;
    },
    [ids],
  );

  return { selected, toggle, setAll };
}

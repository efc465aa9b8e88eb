import { useLayoutEffect, useRef } from 'react';
import { BULK_DELETE_MAX } from '@shared/constants.js';
import { formatCount } from '@/lib/format.js';
import { BulkDeleteButton } from './BulkDeleteButton.js';
import { PrintLabelsButton } from './PrintLabelsButton.js';

interface BulkActionsProps {
  /** Products shown. */
  shown: number;
  selected: string[];
  onSelectAll: (on: boolean) => void;
  /** After a bulk delete that left no product shown: the page takes the focus. */
  onEmptied: () => void;
}

/**
 * 'Select all on page' (every product loaded so far), how many are chosen, and what to do with
 * them. One request deletes at most BULK_DELETE_MAX products, which the bar says when more are
 * chosen.
 */
export function BulkActions({ shown, selected, onSelectAll, onEmptied }: BulkActionsProps) {
  const count = selected.length;
  const all = count > 0 && count === shown;
  const some = count > 0 && !all;
  const selectAll = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = some;
  }, [some]);

  // The Delete button is gone with the products: the focus goes to 'Select all on page', or to
  // the page when it is not shown (once the refreshed list is on screen).
  const onDeleted = () =>
    requestAnimationFrame(() => {
      const box = selectAll.current;
      // On a phone the bar hides again once nothing is chosen.
      if (box && (typeof box.checkVisibility !== 'function' || box.checkVisibility())) box.focus();
      else onEmptied();
    });

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:min-h-10">
      <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-gray-900">
        <input
          ref={selectAll}
          type="checkbox"
          checked={all}
          onChange={(event) => onSelectAll(event.target.checked)}
          className="size-5 cursor-pointer rounded accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        />
        Select all on page
      </label>
      {count > 0 && (
        <>
          <span className="text-sm text-gray-700">{formatCount(count)} selected</span>
          <PrintLabelsButton ids={selected} />
          <BulkDeleteButton
            ids={selected}
            disabled={count > BULK_DELETE_MAX}
            onDeleted={onDeleted}
          />
          {count > BULK_DELETE_MAX && (
            <span className="text-sm text-red-700">
              At most {BULK_DELETE_MAX} products can be deleted at once.
            </span>
          )}
        </>
      )}
    </div>
  );
}

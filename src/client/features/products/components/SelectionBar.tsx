import { lazy, Suspense } from 'react';
import { BULK_DELETE_MAX } from '@shared/constants.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatCount } from '@/lib/format.js';
import { BulkDeleteButton, type NamedProduct } from './BulkDeleteButton.js';
import { PrintLabelsButton } from './common/PrintLabelsButton.js';

/** Moving the chosen products' stock: its code loads with the first selection, not the list. */
const MoveSelection = lazy(() => import('./MoveSelection.js'));

interface SelectionBarProps {
  /** The chosen products, in the list's order. */
  selected: NamedProduct[];
  /** After a bulk delete, once the refreshed list is on screen: the page moves the focus on. */
  onDeleted: () => void;
}

/**
 * How many products are chosen and what to do with them, held at the bottom of the screen while
 * the list scrolls under it (sticky within the list, so it never covers the footer). One request
 * deletes at most BULK_DELETE_MAX products, which the bar says when more are chosen.
 */
export default function SelectionBar({ selected, onDeleted }: SelectionBarProps) {
  const count = selected.length;
  // A stock member chooses products for labels only.
  const may = useCatalogueCan();
  const mayDelete = may('editProducts');
  return (
    <section
      aria-label="Selected products"
      className="sticky bottom-0 z-30 -mx-4 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-gray-200 bg-white px-4 py-3 shadow-[0_-4px_12px_rgb(0_0_0/0.08)] sm:mx-0 sm:rounded-t-xl sm:border sm:px-6"
    >
      <span className="text-sm font-medium text-gray-900">{formatCount(count)} selected</span>
      <div className="ml-auto flex flex-wrap items-center gap-2 sm:gap-3">
        {may('adjustStock') && (
          <Suspense>
            <MoveSelection products={selected} />
          </Suspense>
        )}
        <PrintLabelsButton ids={selected.map(({ id }) => id)} />
        {mayDelete && (
          <BulkDeleteButton
            products={selected}
            disabled={count > BULK_DELETE_MAX}
            onDeleted={() => requestAnimationFrame(onDeleted)}
          />
        )}
      </div>
      {mayDelete && count > BULK_DELETE_MAX && (
        <span className="basis-full text-sm text-red-700">
          At most {BULK_DELETE_MAX} products can be deleted at once.
        </span>
      )}
    </section>
  );
}

import { useQueries } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { MoveStockForm } from '@/components/locations/MoveStockForm.js';
import { Button } from '@/components/ui/Button.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { productQueryOptions } from '../api/get-product.js';
import type { NamedProduct } from './BulkDeleteButton.js';

/** Products one move takes at most: each is read for where its stock is first. */
const MOVE_SELECTION_MAX = 100;

/**
 * 'Move' for the products chosen on the list: a dialog that reads where each one's stock is,
 * then moves all or part of what they hold at one location to another, in one transfer. From a
 * location's page (`from`), it offers only the products that location holds itself: its list
 * also shows what its sub-locations hold, which a move from it cannot take.
 */
export default function MoveSelection({
  products,
  from,
  label = 'Move',
  onMoved,
}: {
  products: NamedProduct[];
  /** Where to take from at first (a location's page: that location). */
  from?: string | undefined;
  label?: string | undefined;
  /** After a move was sent or kept to send (a location's page reads what it holds again). */
  onMoved?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  // Only the default location: nowhere to move to.
  const several = (useLocations(useCatalogueRef()).data?.length ?? 0) > 1;
  const close = () => {
    dialog.current?.close();
    setOpen(false);
  };
  const moved = () => {
    close();
    onMoved?.();
  };
  if (!several) return null;
  return (
    <>
      <Button
        variant="secondary"
        disabled={products.length > MOVE_SELECTION_MAX}
        title={
          products.length > MOVE_SELECTION_MAX
            ? `At most ${MOVE_SELECTION_MAX} products can be moved at once`
            : undefined
        }
        onClick={() => {
          setOpen(true);
          if (typeof dialog.current?.showModal === 'function') dialog.current.showModal();
          else dialog.current?.setAttribute('open', '');
        }}
      >
        {label}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-xl backdrop:bg-gray-900/40"
      >
        <div className="space-y-4 p-6">
          {open ? (
            <MoveDialogBody products={products} from={from} titleId={titleId} onDone={moved} />
          ) : (
            <MoveTitle id={titleId} count={products.length} />
          )}
          <div className="flex justify-end border-t border-gray-200 pt-4">
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

function MoveTitle({ id, count }: { id: string; count: number }) {
  return (
    <h2 id={id} className="text-lg font-semibold text-gray-900">
      Move {count === 1 ? '1 product' : `${count} products`}
    </h2>
  );
}

function MoveDialogBody({
  products,
  from,
  titleId,
  onDone,
}: {
  products: NamedProduct[];
  from: string | undefined;
  titleId: string;
  onDone: () => void;
}) {
  const catalogue = useCatalogueRef();
  const tree = useLocations(catalogue);
  const reads = useQueries({
    queries: products.map(({ id }) => productQueryOptions(catalogue, id)),
  });
  if (tree.isError || reads.some((read) => read.isError)) {
    return (
      <>
        <MoveTitle id={titleId} count={products.length} />
        <p className="text-sm text-red-700">Could not read where the stock is. Try again.</p>
      </>
    );
  }
  if (!tree.data || reads.some((read) => !read.data)) {
    return (
      <>
        <MoveTitle id={titleId} count={products.length} />
        <p className="text-sm text-gray-600">Reading where the stock is…</p>
      </>
    );
  }
  const read = reads.map(({ data }) => ({
    id: data!.id,
    name: data!.name,
    places: data!.locations ?? [],
  }));
  // A location's page moves what the location holds itself.
  const items =
    from === undefined
      ? read
      : read.filter((item) => item.places.some((place) => place.locationId === from));
  return (
    <>
      <MoveTitle id={titleId} count={items.length} />
      <MoveStockForm
        catalogue={catalogue}
        items={items}
        locations={tree.data}
        from={from}
        source="form"
        onDone={onDone}
      />
    </>
  );
}

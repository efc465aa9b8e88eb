import { useInfiniteQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { MovementSource, StockReason } from '@shared/constants.js';
import type { MovementsResponse, StockMovement } from '@shared/schemas/catalogue.js';
import { ListCard } from '@/components/ui/Card.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { formatCount, formatDateTime } from '@/lib/format.js';
import { useOnline } from '@/lib/online.js';
import { movementPagesQueryOptions, MOVEMENTS_SHOWN } from '../api/get-movements.js';
import { REASON_LABELS, ReasonOptions } from '../stock-reasons.js';

const SOURCES: Record<MovementSource, string> = {
  create: 'Created',
  edit: 'Edited',
  adjustment: 'Adjusted',
  count: 'Counted',
  import: 'Imported',
};

/** '+3', '−1' (a true minus sign), '0'. */
const signed = (delta: number) =>
  `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatCount(Math.abs(delta))}`;

/**
 * One change: the difference, where it came from, the stock before and after, the note, and
 * when: at the end of the line on a desktop, under the change on a phone.
 */
function Movement({ movement }: { movement: StockMovement }) {
  // Who made it: nobody for changes recorded before the history kept people.
  const { delta, oldStock, newStock, source, reason, note, createdAt, actor } = movement;
  // A count says what was counted; any other change, by how much.
  const counted = source === 'count';
  return (
    <li className="grid grid-cols-[4rem_minmax(0,1fr)] items-start gap-x-3 gap-y-0.5 px-4 py-3 text-sm sm:grid-cols-[4rem_minmax(0,1fr)_auto] sm:gap-x-4 sm:px-6">
      <span
        className={`row-span-2 rounded-md px-2 py-1 text-center font-semibold tabular-nums ${
          counted
            ? 'bg-gray-100 text-gray-800'
            : delta > 0
              ? 'bg-green-50 text-green-800'
              : 'bg-red-50 text-red-700'
        }`}
      >
        {counted ? formatCount(newStock) : signed(delta)}
      </span>
      <div className="min-w-0">
        <p className="text-gray-900">
          <span className="font-semibold">
            {counted ? `Counted ${formatCount(newStock)}` : SOURCES[source]}
          </span>
          {reason && !(counted && reason === 'counted') && (
            <span className="text-gray-700"> · {REASON_LABELS[reason]}</span>
          )}
          <span className="text-gray-600">
            {' · '}stock {formatCount(oldStock)}
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> to </span>
            {formatCount(newStock)}
          </span>
        </p>
        {note && <p className="mt-0.5 wrap-anywhere text-gray-700">{note}</p>}
        {/* Who made it; changes from before people were recorded name nobody. */}
        {actor && <p className="mt-0.5 text-xs text-gray-600">by {actor.name}</p>}
      </div>
      <time
        dateTime={createdAt}
        className="col-start-2 text-xs text-gray-600 sm:col-start-3 sm:row-start-1 sm:text-sm"
      >
        {formatDateTime(createdAt)}
      </time>
    </li>
  );
}

/**
 * The product's stock movements, newest first (refreshed after every adjustment), of one reason
 * or all, MOVEMENTS_SHOWN more at a time. The first page of all of them is the one the page
 * loaded with the product.
 */
export function StockHistory({
  productId,
  query,
}: {
  productId: string;
  query: UseQueryResult<MovementsResponse>;
}) {
  const catalogue = useCatalogueRef();
  const [reason, setReason] = useState<StockReason | ''>('');
  const first = reason === '' ? query.data : undefined;
  const pages = useInfiniteQuery({
    ...movementPagesQueryOptions(catalogue, productId, reason),
    ...(first && {
      initialData: { pages: [first], pageParams: [undefined] },
      initialDataUpdatedAt: query.dataUpdatedAt,
    }),
  });
  const movements = pages.data?.pages.flatMap((page) => page.movements) ?? [];
  // Offline, a history never read (a product seen only on the list) says so, steadily, rather
  // than flip between its loading line and the failure of each retry.
  const unavailable = !useOnline() && pages.data === undefined;
  return (
    <ListCard
      id="stock-history"
      title="Stock history"
      description="Every change of the stock, newest first."
      actions={
        <label className="text-sm text-gray-700">
          <span className="mr-2">Reason</span>
          <select
            value={reason}
            onChange={(event) => setReason(event.target.value as StockReason | '')}
            className="rounded-md border-0 py-1.5 pr-8 pl-2 text-gray-900 ring-1 ring-gray-300 ring-inset"
          >
            <ReasonOptions none="All" />
          </select>
        </label>
      }
    >
      {unavailable ? (
        <p className="px-6 py-8 text-center text-sm text-gray-600">
          The stock history is not available offline.
        </p>
      ) : pages.isError && movements.length === 0 ? (
        <p role="alert" className="px-6 py-8 text-center text-sm font-medium text-red-700">
          {getErrorMessage(pages.error)}
        </p>
      ) : movements.length === 0 ? (
        <p className="px-6 py-8 text-center text-sm text-gray-600">
          {pages.isPending ? 'Loading...' : 'No stock changes yet.'}
        </p>
      ) : (
        <ol aria-labelledby="stock-history" className="divide-y divide-gray-200">
          {movements.map((movement) => (
            <Movement key={movement.id} movement={movement} />
          ))}
        </ol>
      )}
      {pages.hasNextPage && (
        <div className="border-t border-gray-200 px-4 py-3 text-center sm:px-6">
          <button
            type="button"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
            className="rounded-md px-3 py-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 disabled:opacity-60"
          >
            {pages.isFetchingNextPage ? 'Loading...' : `Load ${MOVEMENTS_SHOWN} more`}
          </button>
        </div>
      )}
    </ListCard>
  );
}

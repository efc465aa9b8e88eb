import type { UseQueryResult } from '@tanstack/react-query';
import type { MovementSource } from '@shared/constants.js';
import type { MovementsResponse, StockMovement } from '@shared/schemas/catalogue.js';
import { Card } from '@/components/ui/Card.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatCount, formatDateTime } from '@/lib/format.js';
import { MOVEMENTS_SHOWN } from '../api/get-movements.js';

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
  const { delta, oldStock, newStock, source, note, createdAt } = movement;
  return (
    <li className="grid grid-cols-[4rem_minmax(0,1fr)] items-start gap-x-3 gap-y-0.5 px-4 py-3 text-sm sm:grid-cols-[4rem_minmax(0,1fr)_auto] sm:gap-x-4 sm:px-6">
      <span
        className={`row-span-2 rounded-md px-2 py-1 text-center font-semibold tabular-nums ${
          delta > 0 ? 'bg-green-50 text-green-800' : 'bg-red-50 text-red-700'
        }`}
      >
        {signed(delta)}
      </span>
      <div className="min-w-0">
        <p className="text-gray-900">
          <span className="font-semibold">{SOURCES[source]}</span>
          <span className="text-gray-600">
            {' · '}stock {formatCount(oldStock)}
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> to </span>
            {formatCount(newStock)}
          </span>
        </p>
        {note && <p className="mt-0.5 wrap-anywhere text-gray-700">{note}</p>}
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

/** The product's last stock movements, newest first (refreshed after every adjustment). */
export function StockHistory({ query }: { query: UseQueryResult<MovementsResponse> }) {
  const movements = query.data?.movements ?? [];
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="stock-history">
        <div className="border-b border-gray-200 px-4 py-4 sm:px-6">
          <h2 id="stock-history" className="text-base font-semibold text-gray-900">
            Stock history
          </h2>
          <p className="mt-1 text-sm text-gray-600">
            The last {MOVEMENTS_SHOWN} changes of the stock, newest first.
          </p>
        </div>
        {query.isError ? (
          <p role="alert" className="px-6 py-8 text-center text-sm font-medium text-red-700">
            {getErrorMessage(query.error)}
          </p>
        ) : movements.length === 0 ? (
          <p className="px-6 py-8 text-center text-sm text-gray-600">No stock changes yet.</p>
        ) : (
          <ol aria-labelledby="stock-history" className="divide-y divide-gray-200">
            {movements.map((movement) => (
              <Movement key={movement.id} movement={movement} />
            ))}
          </ol>
        )}
      </section>
    </Card>
  );
}

import type { UseQueryResult } from '@tanstack/react-query';
import type { MovementSource } from '@shared/constants.js';
import type { MovementsResponse } from '@shared/schemas/catalogue.js';
import { Card } from '@/components/ui/Card.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/ui/Table.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { formatCount, formatDateTime } from '@/lib/format.js';
import { MOVEMENTS_SHOWN } from '../api/get-movements.js';

const SOURCES: Record<MovementSource, string> = {
  create: 'Created',
  edit: 'Edited',
  adjustment: 'Adjusted',
  import: 'Imported',
};

/** '+3', '−1' (a true minus sign), '0'. */
const signed = (delta: number) =>
  `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatCount(Math.abs(delta))}`;

const cell = `${tableCell} whitespace-nowrap`;

/**
 * The product's last stock movements, newest first: when, how the count changed (old, new and the
 * difference), where the change came from and its note. Scrolls sideways on a phone.
 */
export function StockHistory({ query }: { query: UseQueryResult<MovementsResponse> }) {
  const movements = query.data?.movements ?? [];
  return (
    <Card className="overflow-hidden">
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
        <ScrollRegion labelledBy="stock-history">
          <table className="w-full text-left text-sm">
            <TableHead
              columns={[
                { label: 'When' },
                { label: 'Change', numeric: true },
                { label: 'Old stock', numeric: true },
                { label: 'New stock', numeric: true },
                { label: 'Source' },
                { label: 'Note' },
              ]}
            />
            <tbody className="divide-y divide-gray-200 text-gray-900">
              {movements.map((movement) => (
                <tr key={movement.id}>
                  <td className={cell}>
                    <time dateTime={movement.createdAt}>{formatDateTime(movement.createdAt)}</time>
                  </td>
                  <td
                    className={`${cell} text-right font-semibold tabular-nums ${movement.delta > 0 ? 'text-green-800' : 'text-red-700'}`}
                  >
                    {signed(movement.delta)}
                  </td>
                  <td className={`${cell} text-right tabular-nums`}>
                    {formatCount(movement.oldStock)}
                  </td>
                  <td className={`${cell} text-right tabular-nums`}>
                    {formatCount(movement.newStock)}
                  </td>
                  <td className={cell}>{SOURCES[movement.source]}</td>
                  <td className={`${tableCell} min-w-48 wrap-anywhere text-gray-700`}>
                    {movement.note ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}

import { Card } from '@/components/ui/Card.js';
import { LinkCell, ScrollRegion, TableHead, tableCell } from '@/components/controls/Table.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatCount, formatDateTime } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { useCounts } from '../api/counts.js';
import { scopeText, statusText } from './count-texts.js';
import { NewCount } from './NewCount.js';

const COLUMNS = [
  { label: 'Name' },
  { label: 'Scope' },
  { label: 'Status' },
  { label: 'Lines', numeric: true },
  { label: 'Created' },
];

/**
 * `/counts` and `/catalogues/:catalogueId/counts`: the catalogue's stock counts, newest first;
 * editors start one here.
 */
export function CountsScreen() {
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  const counts = useCounts(catalogue);
  return (
    <div className="mx-auto max-w-4xl min-w-0 space-y-6">
      <ScreenHeading
        title="Counts"
        description="Stock-takes: count what is on the shelves, review the differences, post them."
      />
      <Card className="p-0">
        <ScrollRegion label="Counts">
          <table className="min-w-full divide-y divide-gray-200 text-sm">
            <TableHead columns={COLUMNS} />
            <tbody className="divide-y divide-gray-100">
              {(counts.data ?? []).map((count) => (
                <tr key={count.id}>
                  <LinkCell to={paths.counts.count.getHref(count.id, catalogue)} text={count.name}>
                    {count.blind && <span className="ml-2 text-xs text-gray-600">Blind</span>}
                  </LinkCell>
                  <td className={tableCell}>{scopeText(count.scope)}</td>
                  <td className={tableCell}>{statusText(count.status)}</td>
                  <td className={`${tableCell} text-right tabular-nums`}>
                    {formatCount(count.lines)}
                  </td>
                  <td className={tableCell}>
                    {formatDateTime(count.createdAt)}
                    {count.createdBy && (
                      <span className="block text-gray-600">by {count.createdBy.name}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        {counts.isPending && <p className="p-4 text-sm text-gray-600">Loading counts…</p>}
        {counts.data?.length === 0 && <p className="p-4 text-sm text-gray-600">No counts yet.</p>}
      </Card>
      {may('manageCounts') && <NewCount />}
    </div>
  );
}

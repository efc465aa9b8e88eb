import { STOCK_IMPORT_COLUMNS_TEXT } from '@shared/constants.js';
import type { StockImportReport } from '@shared/schemas/locations/stock-import.js';
import { Card } from '@/components/ui/Card.js';
import { formatCount } from '@/lib/format.js';
import { stockByLocationImport } from '../api/stock-by-location.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { CsvImportSteps } from './CsvImportSteps.js';
import { ImportErrors } from './ImportErrors.js';
import { NeedsRight } from './NeedsRight.js';
import { PageHeader } from './PageHeader.js';
import { useCsvImport } from './use-csv-import.js';

/** What a dry run found: the verdict, each error with its line, and the first changes. */
function StockReport({ report }: { report: StockImportReport }) {
  const { errors, changes = [] } = report;
  const ok = errors.length === 0;
  return (
    <div className="space-y-6">
      <p
        className={`rounded-xl px-4 py-3 text-sm font-semibold ring-1 ${ok ? 'bg-green-50 text-green-900 ring-green-600/20' : 'bg-red-50 text-red-900 ring-red-600/20'}`}
      >
        {report.message}
      </p>
      {!ok && <ImportErrors id="stock-import-errors" errors={errors} />}
      {ok && changes.length > 0 && (
        <section aria-labelledby="stock-import-changes" className="space-y-2">
          <h2 id="stock-import-changes" className="text-base font-semibold text-gray-900">
            First changes
          </h2>
          <ul className="divide-y divide-gray-200 rounded-xl text-sm ring-1 ring-gray-200">
            {changes.map((change) => (
              <li key={change.line} className="flex flex-wrap gap-x-3 px-3 py-2">
                <span className="font-semibold text-gray-900">{change.name}</span>
                <span className="text-gray-700">{change.location}</span>
                <span className="tabular-nums">
                  {formatCount(change.before)} → {formatCount(change.after)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * Quantities by location from a CSV file (what 'Export stock by location' writes): the file is
 * checked at once (a dry run: nothing changes) and what it would change shown; a file without
 * errors can then be counted in, every row or none; then the list, with the server's message.
 */
export function ImportStockByLocation() {
  const csv = useCsvImport(stockByLocationImport, {});
  const { report } = csv;
  const changed = report?.changed ?? 0;
  const ready = report !== null && report.errors.length === 0 && changed > 0;
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <PageHeader title="Import Stock by Location" back={<BackToProductsLink />} />
      <NeedsRight action="adjustStock">
        <Card className="space-y-6 px-4 py-6 sm:px-8 sm:py-8">
          <p className="text-sm text-gray-700">
            Set how many of each product each location holds, from the file &lsquo;Export stock by
            location&rsquo; writes: one row per product and location, <code>quantity</code> being
            what you counted there. The file is checked first: nothing changes until you confirm,
            and then every row does, or none.
          </p>
          <CsvImportSteps
            csv={csv}
            header={`${STOCK_IMPORT_COLUMNS_TEXT}, in any order (others, such as name, are left aside)`}
            report={report && <StockReport report={report} />}
            importLabel={
              ready
                ? `Set ${formatCount(changed)} ${changed === 1 ? 'quantity' : 'quantities'}`
                : undefined
            }
          />
        </Card>
      </NeedsRight>
    </div>
  );
}

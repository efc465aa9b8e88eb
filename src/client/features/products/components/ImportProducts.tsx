import { useState } from 'react';
import { EXPORT_COLUMNS, IMPORT_COLUMNS, type ImportMatches } from '@shared/constants.js';
import { Card } from '@/components/ui/Card.js';
import { controlClasses } from '@/components/ui/Field.js';
import { formatCount } from '@/lib/format.js';
import { productsImport } from '../api/import-products.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { CsvImportSteps } from './CsvImportSteps.js';
import { ImportReport } from './ImportReport.js';
import { NeedsRight } from './NeedsRight.js';
import { PageHeader } from './PageHeader.js';
import { useCsvImport } from './use-csv-import.js';

const TEMPLATE_ROW: Partial<Record<(typeof EXPORT_COLUMNS)[number], string>> = {
  name: 'Desk lamp',
  price: '19.99',
  stock: '12',
  description: 'A lamp for the desk',
  tags: 'Lighting; Office',
  cost: '8.50',
};

/** A file with the export's header and one example row: what an import reads. */
const TEMPLATE = [
  EXPORT_COLUMNS.join(','),
  EXPORT_COLUMNS.map((column) => TEMPLATE_ROW[column] ?? '').join(','),
].join('\r\n');

/** Saves the template as a file, from a Blob made on demand. */
function downloadTemplate() {
  const url = URL.createObjectURL(new Blob([`\uFEFF${TEMPLATE}\r\n`], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'stockroom-import-template.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Products from a CSV file: the file is checked at once (a dry run: nothing is written) and the
 * report shown; a file without errors can then be imported, all its rows or none, with the upload's
 * progress; then the list, with the server's message.
 */
export function ImportProducts() {
  const [matches, setMatches] = useState<ImportMatches>('update');
  const csv = useCsvImport(productsImport, { matches });
  const { report } = csv;
  const writes = report ? report.created + report.updated : 0;
  const ready = report !== null && report.errors.length === 0 && writes > 0;
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <PageHeader title="Import Products" back={<BackToProductsLink />} />
      <NeedsRight action="editProducts">
        <Card className="space-y-6 px-4 py-6 sm:px-8 sm:py-8">
          <p className="text-sm text-gray-700">
            Add many products at once from a spreadsheet saved as CSV. The file is checked first:
            nothing is imported until you confirm, and then every row is, or none.
          </p>
          <p className="text-sm text-gray-700">
            A row with the <code>id</code> of one of your products (as an export writes it) matches
            that product.{' '}
            <button
              type="button"
              onClick={downloadTemplate}
              className="font-semibold text-indigo-700 underline hover:text-indigo-600"
            >
              Download a template CSV
            </button>
          </p>
          <label className="block text-sm font-medium text-gray-900">
            Rows that match a product
            <select
              value={matches}
              disabled={csv.checking || csv.importing}
              onChange={(event) => {
                const chosen = event.target.value as ImportMatches;
                setMatches(chosen);
                if (csv.file) csv.choose(csv.file, { matches: chosen });
              }}
              className={`mt-2 ${controlClasses}`}
            >
              <option value="update">Update the product</option>
              <option value="skip">Leave the product as it is</option>
              <option value="copy">Create a copy</option>
            </select>
          </label>
          <CsvImportSteps
            csv={csv}
            header={`${IMPORT_COLUMNS.join(', ')}, in any order`}
            report={report && <ImportReport report={report} />}
            importLabel={
              ready
                ? `Import ${formatCount(writes)} ${writes === 1 ? 'product' : 'products'}`
                : undefined
            }
          />
        </Card>
      </NeedsRight>
    </div>
  );
}

import { IMPORT_PREVIEW_ROWS } from '@shared/constants.js';
import type { ImportReport as Report } from '@shared/schemas/catalogue.js';
import { formatCount } from '@/lib/format.js';
import { ImportErrors } from './ImportErrors.js';
import { ImportPreview } from './ImportPreview.js';

/**
 * What a dry run found: the server's verdict, how many rows it read, every error with its line
 * (the header is line 1) and column, and the first rows as they would be stored.
 */
export function ImportReport({ report }: { report: Report }) {
  const { errors, preview = [], rows } = report;
  const ok = errors.length === 0;
  return (
    <div className="space-y-6">
      <div
        className={`rounded-xl px-4 py-3 text-sm ring-1 ${ok ? 'bg-green-50 text-green-900 ring-green-600/20' : 'bg-red-50 text-red-900 ring-red-600/20'}`}
      >
        <p className="font-semibold">{report.message}</p>
        {rows !== undefined && (
          <p className="mt-1">
            {formatCount(rows)} {rows === 1 ? 'row' : 'rows'} read
            {ok
              ? ''
              : `, ${formatCount(errors.length)} ${errors.length === 1 ? 'error' : 'errors'}`}
            .
          </p>
        )}
      </div>

      {!ok && <ImportErrors id="import-errors" errors={errors} />}

      {preview.length > 0 && (
        <section className="space-y-2">
          <h2 id="import-preview" className="text-base font-semibold text-gray-900">
            {ok ? 'First rows' : 'First valid rows'}
          </h2>
          <p className="text-sm text-gray-600">
            Up to {IMPORT_PREVIEW_ROWS} rows, as they will be stored.
          </p>
          <ImportPreview rows={preview} />
        </section>
      )}
    </div>
  );
}

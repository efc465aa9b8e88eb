import type { ReactNode } from 'react';
import { Button } from '@/components/ui/Button.js';
import { ProgressBar } from '@/components/forms/ProgressBar.js';
import { CsvFilePicker } from './CsvFilePicker.js';
import type { CsvImportState } from './use-csv-import.js';

interface CsvImportStepsProps<Extra, Report> {
  csv: CsvImportState<Extra, Report>;
  /** The columns the file's header names, in words: each import has its own. */
  header: string;
  /** The shown report, as the import words it. */
  report: ReactNode;
  /** The import button's text; none while there is nothing to import (errors, or no change). */
  importLabel: string | undefined;
}

/** A CSV import's steps, below the screen's own words: the file, the progress, the report, go. */
export function CsvImportSteps<Extra, Report>({
  csv,
  header,
  report,
  importLabel,
}: CsvImportStepsProps<Extra, Report>) {
  return (
    <>
      <CsvFilePicker
        header={header}
        file={csv.file}
        onChange={(chosen) => csv.choose(chosen)}
        error={csv.fileError}
        disabled={csv.importing}
      />
      {(csv.checking || csv.importing) && (
        <div aria-live="polite">
          <ProgressBar
            value={csv.progress}
            label={csv.importing ? 'Importing...' : 'Checking the file...'}
          />
        </div>
      )}
      {csv.report && !csv.checking && report}
      {importLabel && (
        <div className="flex flex-wrap items-center gap-3 border-t border-gray-200 pt-6">
          <Button busy={csv.importing} busyLabel="Importing..." onClick={csv.importAll}>
            {importLabel}
          </Button>
        </div>
      )}
    </>
  );
}

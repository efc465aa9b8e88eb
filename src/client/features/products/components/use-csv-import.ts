import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import {
  ImportRefused,
  type CsvImport,
  type CsvReport,
  type CsvUpload,
} from '../api/csv-upload.js';
import { useProductWrite } from '../api/product-write.js';
import { csvFileError } from './CsvFilePicker.js';

export interface CsvImportState<Extra, Report> {
  file: File | null;
  /** Why the file is refused as a whole (too large, a failed upload). */
  fileError: string | undefined;
  report: Report | null;
  progress: number;
  /** Checks a file; `withExtra` is for a control that changed in this very event. */
  choose: (file: File, withExtra?: Extra) => void;
  importAll: () => void;
  checking: boolean;
  importing: boolean;
}

/**
 * The state of a CSV import screen: a file chosen is checked at once (a dry run: nothing is
 * written) and its report kept; a file without errors can then be imported, all its rows or none,
 * with the upload's progress; then the list, with the server's message. `extra` is what the
 * screen's own controls add to the upload, as they stand.
 */
export function useCsvImport<Extra extends object, Report extends CsvReport>(
  csv: CsvImport<Extra, Report>,
  extra: Extra,
): CsvImportState<Extra, Report> {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [report, setReport] = useState<Report | null>(null);
  const [progress, setProgress] = useState(0);
  // The file on screen: the answer about a file chosen before it is not shown.
  const latest = useRef<File | null>(null);
  const current = (upload: CsvUpload) => upload.file === latest.current;

  const showFailure = (error: unknown, upload: CsvUpload) => {
    if (!current(upload)) return;
    // A refusal's report has the shape of this import's reports: its schema read it.
    if (error instanceof ImportRefused) setReport(error.report as Report);
    else setFileError(getErrorMessage(error));
  };

  const check = useProductWrite({
    action: csv.action,
    send: csv.send,
    refresh: () => undefined,
    mutationConfig: {
      onSuccess: (answer, upload) => {
        if (current(upload)) setReport(answer);
      },
      onError: showFailure,
    },
  });
  const run = useProductWrite({
    action: csv.action,
    send: csv.send,
    refresh: csv.refresh,
    mutationConfig: {
      onSuccess: async ({ message }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref(catalogue));
      },
      onError: showFailure,
    },
  });

  const choose = (chosen: File, withExtra: Extra = extra) => {
    latest.current = chosen;
    setFile(chosen);
    setReport(null);
    run.reset();
    const problem = csvFileError(chosen);
    setFileError(problem);
    if (problem) return;
    setProgress(0);
    check.mutate({ ...withExtra, file: chosen, dryRun: true, onProgress: setProgress });
  };

  const importAll = () => {
    if (!file) return;
    setProgress(0);
    run.mutate({ ...extra, file, dryRun: false, onProgress: setProgress });
  };

  return {
    file,
    fileError,
    report,
    progress,
    choose,
    importAll,
    checking: check.isPending,
    importing: run.isPending,
  };
}

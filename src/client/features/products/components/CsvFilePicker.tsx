import { useId } from 'react';
import { IMPORT_MAX_BYTES } from '@shared/constants.js';
import { IMPORT_MAX_MB_TEXT, IMPORT_MAX_ROWS_TEXT, M } from '@shared/messages.js';
import { DropZone } from '@/components/forms/DropZone.js';

interface CsvFilePickerProps {
  /** The columns this import's header names, in words ('name, price, …, in any order'). */
  header: string;
  file: File | null;
  onChange: (file: File) => void;
  /** Why the chosen file is refused (by the picker, or by the server as a whole). */
  error?: string | undefined;
  disabled?: boolean;
}

/** Why a file is refused before it is sent (its size; its content is the server's to judge). */
export const csvFileError = (file: File) =>
  file.size > IMPORT_MAX_BYTES ? M.importTooLarge : undefined;

/** Picks one CSV file by browsing or by drag and drop; says which one and why it is refused. */
export function CsvFilePicker({
  header,
  file,
  onChange,
  error,
  disabled = false,
}: CsvFilePickerProps) {
  const inputId = useId();
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-900">
        CSV file
      </label>
      <DropZone
        inputId={inputId}
        accept=".csv,text/csv"
        browseLabel={file ? 'Choose another file' : 'Choose a CSV file'}
        hint={`A header row naming the columns ${header}; up to ${IMPORT_MAX_MB_TEXT} and ${IMPORT_MAX_ROWS_TEXT} rows.`}
        error={error}
        disabled={disabled}
        onFile={(chosen) => {
          if (chosen) onChange(chosen);
        }}
        icon={
          <svg
            className="mx-auto size-10 text-gray-400"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.5}
            aria-hidden="true"
          >
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M19.5 14.25v-2.625a3.375 3.375 0 0 0-3.375-3.375h-1.5A1.125 1.125 0 0 1 13.5 7.125v-1.5a3.375 3.375 0 0 0-3.375-3.375H8.25m3.75 9v6m3-3H9m1.5-12H5.625c-.621 0-1.125.504-1.125 1.125v17.25c0 .621.504 1.125 1.125 1.125h12.75c.621 0 1.125-.504 1.125-1.125V11.25a9 9 0 0 0-9-9Z"
            />
          </svg>
        }
      >
        {file && (
          <p className="mt-3 text-sm font-medium wrap-anywhere text-gray-900">
            <span className="sr-only">Chosen: </span>
            {file.name}
          </p>
        )}
      </DropZone>
    </div>
  );
}

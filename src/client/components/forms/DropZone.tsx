import { useState, type DragEvent, type ReactNode, type Ref } from 'react';

interface DropZoneProps {
  /** The id of its file input, which the picker's own label names too. */
  inputId: string;
  inputRef?: Ref<HTMLInputElement>;
  /** The input's `accept`. */
  accept: string;
  /** The link-like label that opens the file dialog ('Choose an image'). */
  browseLabel: string;
  /** What files are taken (type, size); describes the input. */
  hint: ReactNode;
  /** Why the chosen file is refused; describes the input and marks it invalid. */
  error?: string | undefined;
  disabled?: boolean;
  icon: ReactNode;
  /** Called with the file chosen or dropped (the first one). */
  onFile: (file: File | undefined) => void;
  /** Shown in the zone under the hint (the chosen file's name). */
  children?: ReactNode;
}

/**
 * The dashed box of a file picker: browse with its label, or drop a file on it (it lights up while
 * one is dragged over it, and while its input has the focus); the hint and the refusal below.
 */
export function DropZone({
  inputId,
  inputRef,
  accept,
  browseLabel,
  hint,
  error,
  disabled = false,
  icon,
  onFile,
  children,
}: DropZoneProps) {
  const [dragging, setDragging] = useState(false);
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFile(event.dataTransfer.files[0]);
  };

  return (
    <>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dragging={dragging || undefined}
        className={`mt-2 flex justify-center rounded-xl border-2 border-dashed px-6 py-8 transition-colors focus-within:border-indigo-600 focus-within:ring-2 focus-within:ring-indigo-600 ${
          dragging ? 'border-indigo-600 bg-indigo-50' : 'border-gray-300 bg-gray-50'
        } ${error ? 'border-red-500' : ''}`}
      >
        <div className="text-center">
          {icon}
          <p className="mt-3 text-sm text-gray-700">
            <label
              htmlFor={inputId}
              className="cursor-pointer font-semibold text-indigo-700 hover:text-indigo-600"
            >
              {browseLabel}
            </label>{' '}
            or drag and drop it here
          </p>
          <p id={hintId} className="mt-1 text-xs text-gray-600">
            {hint}
          </p>
          {children}
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={accept}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            className="sr-only"
            onChange={(event) => {
              onFile(event.target.files?.[0]);
              // The same file can be chosen again (after a clear, or fixed under the same name).
              event.target.value = '';
            }}
          />
        </div>
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

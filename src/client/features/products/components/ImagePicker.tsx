import { useEffect, useId, useRef, useState } from 'react';
import { IMAGE_ACCEPTED_TYPES } from '@shared/constants.js';
import { M } from '@shared/messages.js';
import { imageFileError } from '@shared/schemas/product-forms.js';
import { DropZone } from '@/components/forms/DropZone.js';

interface ImagePickerProps {
  label: string;
  onChange: (file: File | null) => void;
  /** On edit: the product's picture now. */
  currentImage?: { url: string; alt: string } | undefined;
  disabled?: boolean;
}

interface Chosen {
  file: File;
  previewUrl: string;
}

const formatSize = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Why the browser cannot decode the file as an image (a text file named .png), or undefined. The
 * name and type a file claims prove nothing; decoding it does. The server decodes every upload
 * anyway; this says so before the upload. Where the browser has no createImageBitmap, the check
 * is left to the server.
 */
async function decodeError(file: File): Promise<string | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  try {
    (await createImageBitmap(file)).close();
    return undefined;
  } catch {
    return M.imageUnreadable;
  }
}

/**
 * Picks one image by browsing or by drag and drop, previews it, and says why a file is refused
 * (not an image, a type we do not take, too large).
 */
export function ImagePicker({ label, onChange, currentImage, disabled = false }: ImagePickerProps) {
  const inputId = useId();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const previewUrl = useRef<string | null>(null);

  // The preview's object URL is freed when it is replaced, cleared, or the picker goes away.
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  const replacePreview = (next: Chosen | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = next?.previewUrl ?? null;
    setChosen(next);
    onChange(next?.file ?? null);
  };

  // The latest choice: a slow decode of an earlier file must not overwrite it.
  const latest = useRef<File | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    latest.current = file;
    const problem = imageFileError(file) ?? (await decodeError(file));
    if (latest.current !== file) return;
    setError(problem);
    if (problem) return;
    replacePreview({ file, previewUrl: URL.createObjectURL(file) });
  };

  const clear = () => {
    replacePreview(null);
    setError(undefined);
    input.current?.focus();
  };

  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-900">
        {label}
      </label>

      {currentImage && (
        <figure className="mt-2 flex items-center gap-4">
          <img
            src={currentImage.url}
            alt={currentImage.alt}
            className="size-20 rounded-lg object-cover ring-1 ring-gray-200"
          />
          <figcaption className="text-sm text-gray-700">Current image</figcaption>
        </figure>
      )}

      <DropZone
        inputId={inputId}
        inputRef={input}
        accept={IMAGE_ACCEPTED_TYPES.join(',')}
        browseLabel={chosen || currentImage ? 'Choose another image' : 'Choose an image'}
        hint="JPEG, PNG, WebP, AVIF or GIF, up to 5 MB"
        error={error}
        disabled={disabled}
        onFile={(file) => void choose(file)}
        icon={
          <svg
            className="mx-auto size-10 text-gray-400"
            viewBox="0 0 24 24"
            fill="currentColor"
            aria-hidden="true"
          >
            <path
              fillRule="evenodd"
              d="M1.5 6a2.25 2.25 0 0 1 2.25-2.25h16.5A2.25 2.25 0 0 1 22.5 6v12a2.25 2.25 0 0 1-2.25 2.25H3.75A2.25 2.25 0 0 1 1.5 18V6ZM3 16.06V18c0 .414.336.75.75.75h16.5A.75.75 0 0 0 21 18v-1.94l-2.69-2.689a1.5 1.5 0 0 0-2.12 0l-.88.879.97.97a.75.75 0 1 1-1.06 1.06l-5.16-5.159a1.5 1.5 0 0 0-2.12 0L3 16.061Zm10.125-7.81a1.125 1.125 0 1 1 2.25 0 1.125 1.125 0 0 1-2.25 0Z"
              clipRule="evenodd"
            />
          </svg>
        }
      />

      {chosen && (
        <div className="mt-3 flex items-center gap-4 rounded-xl bg-white p-3 ring-1 ring-gray-200">
          <img
            src={chosen.previewUrl}
            alt="Preview of the chosen image"
            className="size-16 rounded-lg object-cover"
          />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-gray-900">{chosen.file.name}</p>
            <p className="text-xs text-gray-600">{formatSize(chosen.file.size)}</p>
          </div>
          <button
            type="button"
            onClick={clear}
            aria-label="Clear the chosen image"
            disabled={disabled}
            className="rounded-lg px-3 py-2 text-sm font-semibold text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Clear
          </button>
        </div>
      )}
    </div>
  );
}

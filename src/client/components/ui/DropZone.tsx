import { useState, type DragEvent, type ReactNode } from 'react';

interface DropZoneProps {
  /** Called with the first file dropped on the zone. */
  onFile: (file: File | undefined) => void;
  disabled?: boolean;
  invalid?: boolean;
  /** What the zone shows: the icon, the way to browse (a label of a file input) and the hint. */
  children: ReactNode;
}

/**
 * The dashed box of a file picker that also takes a file dropped on it; it lights up while a file
 * is dragged over it, and as its file input has the focus.
 */
export function DropZone({ onFile, disabled = false, invalid = false, children }: DropZoneProps) {
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFile(event.dataTransfer.files[0]);
  };

  return (
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
      } ${invalid ? 'border-red-500' : ''}`}
    >
      <div className="text-center">{children}</div>
    </div>
  );
}

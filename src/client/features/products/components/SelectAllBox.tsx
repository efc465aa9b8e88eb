import { useLayoutEffect, useRef } from 'react';

interface SelectAllBoxProps {
  /** Products shown. */
  shown: number;
  /** Products chosen. */
  count: number;
  onSelectAll: (on: boolean) => void;
}

/** 'Select all on page' (every product loaded so far): half checked when only some are. */
export function SelectAllBox({ shown, count, onSelectAll }: SelectAllBoxProps) {
  const box = useRef<HTMLInputElement>(null);
  const all = count > 0 && count === shown;
  const some = count > 0 && !all;

  useLayoutEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [box, some]);

  return (
    <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-gray-900 sm:min-h-10">
      <input
        ref={box}
        type="checkbox"
        checked={all}
        onChange={(event) => onSelectAll(event.target.checked)}
        className="size-5 cursor-pointer rounded accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      />
      Select all on page
    </label>
  );
}

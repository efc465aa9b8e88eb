import { useState } from 'react';

/**
 * An id in small type with a Copy button beside it: it is looked up and pasted, rarely read.
 * The clipboard may refuse (an insecure page, a denied permission): the id stays selectable.
 */
export function CopyableId({ id }: { id: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <span className="inline-flex max-w-full items-center gap-2">
      <span className="truncate font-mono text-xs text-gray-600 select-all" title={id}>
        {id}
      </span>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={copied ? 'Product ID copied' : 'Copy Product ID'}
        className="shrink-0 rounded-md px-2 py-1 text-xs font-semibold text-indigo-700 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}

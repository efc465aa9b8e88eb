import type { ReactNode } from 'react';

/** http(s) addresses only: other schemes (javascript:, data:) stay text. */
const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** Punctuation that ends a sentence around an address rather than belonging to it. */
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * A mail's plain text with its links clickable. Built as React elements from the text (never the
 * mail's HTML): everything else is rendered as text, so nothing in a mail can run.
 */
export function MailText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    const start = match.index;
    parts.push(text.slice(last, start));
    parts.push(
      <a
        key={start}
        href={url}
        className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {url}
      </a>,
    );
    last = start + url.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

import type { ReactNode } from 'react';

interface EmptyStateProps {
  title: string;
  text: string;
  children: ReactNode;
}

/** What the list shows instead of products: why there are none, and what to do. */
export function EmptyState({ title, text, children }: EmptyStateProps) {
  return (
    <div className="rounded-2xl border-2 border-dashed border-gray-300 bg-white px-6 py-16 text-center">
      <svg
        className="mx-auto size-12 text-gray-400"
        fill="none"
        viewBox="0 0 24 24"
        stroke="currentColor"
        aria-hidden="true"
      >
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          strokeWidth={1.5}
          d="m20.25 7.5-.625 10.632a2.25 2.25 0 0 1-2.247 2.118H6.622a2.25 2.25 0 0 1-2.247-2.118L3.75 7.5M10 11.25h4M3.375 7.5h17.25c.621 0 1.125-.504 1.125-1.125v-1.5c0-.621-.504-1.125-1.125-1.125H3.375c-.621 0-1.125.504-1.125 1.125v1.5c0 .621.504 1.125 1.125 1.125Z"
        />
      </svg>
      <h2 className="mt-4 text-base font-semibold text-gray-900">{title}</h2>
      <p className="mt-1 text-sm text-gray-600">{text}</p>
      <div className="mt-6">{children}</div>
    </div>
  );
}

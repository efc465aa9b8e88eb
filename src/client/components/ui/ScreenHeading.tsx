import type { ReactNode } from 'react';
import { tabTitle } from '@/lib/texts.js';

interface ScreenHeadingProps {
  title: string;
  /** The tab's title, when shorter than the heading. */
  tab?: string;
  /** A line on what the screen is for. */
  description: ReactNode;
  /** What acts on the whole screen, beside the heading (it wraps below on narrow screens). */
  actions?: ReactNode;
}

/** A screen's tab title, its heading and what it is for. */
export function ScreenHeading({ title, tab = title, description, actions }: ScreenHeadingProps) {
  const heading = (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl">{title}</h1>
      <p className="mt-1 text-sm text-gray-600">{description}</p>
    </div>
  );
  return (
    <>
      <title>{tabTitle(tab)}</title>
      {actions === undefined ? (
        heading
      ) : (
        <div className="flex flex-wrap items-end justify-between gap-3">
          {heading}
          {actions}
        </div>
      )}
    </>
  );
}

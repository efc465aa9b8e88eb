import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { tabTitle } from '@/lib/texts.js';

interface ItemHeadingProps {
  /** The item's name: the tab's title and the heading. */
  name: string;
  /** The list the item belongs to, linked above the heading ("All counts"). */
  back: { to: string; label: string };
  /** Shown after the name in the heading (a status). */
  badge?: ReactNode;
  /** A line on the item. */
  description: ReactNode;
  /** Further lines below it. */
  children?: ReactNode;
}

/** The top of one item's screen (a count, a location, an order): back to its list, its name. */
export function ItemHeading({ name, back, badge, description, children }: ItemHeadingProps) {
  return (
    <>
      <title>{tabTitle(name)}</title>
      <div>
        <Link to={back.to} className="text-sm text-indigo-700 hover:underline">
          {back.label}
        </Link>
        <h1
          className={`mt-2 text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl ${badge ? 'flex flex-wrap items-center gap-3' : 'break-words'}`}
        >
          {name}
          {badge && <> {badge}</>}
        </h1>
        <p className="mt-1 text-sm text-gray-700">{description}</p>
        {children}
      </div>
    </>
  );
}

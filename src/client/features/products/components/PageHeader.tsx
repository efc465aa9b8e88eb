import type { ReactNode } from 'react';
import { tabTitle } from '@/lib/texts.js';

interface PageHeaderProps {
  title: string;
  /** The way back ('Back to Products', 'Back to Details'). */
  back: ReactNode;
}

export function PageHeader({ title, back }: PageHeaderProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <title>{tabTitle(title)}</title>
      <h1 className="min-w-0 text-3xl font-bold tracking-tight wrap-anywhere text-gray-900">
        {title}
      </h1>
      {back}
    </div>
  );
}

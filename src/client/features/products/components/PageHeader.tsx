import type { ReactNode } from 'react';
import { DocumentTitle } from '@/components/DocumentTitle.js';

interface PageHeaderProps {
  title: string;
  /** The way back ('Back to Products', 'Back to Details'). */
  back: ReactNode;
}

export function PageHeader({ title, back }: PageHeaderProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <DocumentTitle>{title}</DocumentTitle>
      <h1 className="min-w-0 text-3xl font-bold tracking-tight wrap-anywhere text-gray-900">
        {title}
      </h1>
      {back}
    </div>
  );
}

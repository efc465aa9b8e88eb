import type { ReactNode } from 'react';
import { Card } from '@/components/ui/Card.js';
import { tabTitle } from '@/lib/texts.js';

interface AuthPanelProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links to the other auth screens, under the form. */
  links?: ReactNode;
}

/** The white card every auth screen sits in, on the dark auth layout. */
export function AuthPanel({ title, subtitle, children, links }: AuthPanelProps) {
  return (
    <Card className="px-6 py-8 sm:px-10 sm:py-10">
      <title>{tabTitle(title)}</title>
      <h1 className="text-center text-2xl font-bold tracking-tight text-gray-900">{title}</h1>
      {subtitle && <p className="mt-2 text-center text-sm text-gray-600">{subtitle}</p>}
      <div className="mt-8">{children}</div>
      {links && (
        <div className="mt-8 flex flex-col items-center gap-3 border-t border-gray-200 pt-6 text-sm">
          {links}
        </div>
      )}
    </Card>
  );
}

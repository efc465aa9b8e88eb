import type { ReactNode } from 'react';
import { Card } from '@/components/ui/Card.js';

/** One part of the security screen: a card with its heading and what it says. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card className="px-6 py-6 sm:px-8" role="region" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-gray-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{description}</p>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

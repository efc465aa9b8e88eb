import type { ComponentProps, ReactNode } from 'react';

export function Card({ className = '', ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={`rounded-2xl bg-white shadow-lg ring-1 ring-gray-900/5 ${className}`}
      {...props}
    />
  );
}

/** A card that is one titled section: its heading names the section (`aria-labelledby`). */
export function CardSection({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={id} className={className}>
        <h2 id={id} className="text-base font-semibold text-gray-900">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

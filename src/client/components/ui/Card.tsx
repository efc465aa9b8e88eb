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

/**
 * A card whose body runs to its edges (a list): its title, with a line of description, in a bar
 * above, and beside them what acts on the whole list (a filter).
 */
export function ListCard({
  id,
  title,
  description,
  actions,
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby={id}>
        <div className="flex flex-wrap items-end justify-between gap-3 border-b border-gray-200 px-4 py-4 sm:px-6">
          <div>
            <h2 id={id} className="text-base font-semibold text-gray-900">
              {title}
            </h2>
            {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
          </div>
          {actions}
        </div>
        {children}
      </section>
    </Card>
  );
}

import { Card } from '@/components/ui/Card.js';

/** A grey bar standing for a line of text that is on its way. */
function Bar({ className }: { className: string }) {
  return <div className={`animate-pulse rounded-md bg-gray-200 ${className}`} />;
}

/**
 * The product page's shape while the product loads (and while the page's code does): the card
 * with its picture's square and the lines of its text, where they will be. The page takes its
 * final size at once, so nothing under it moves when the product arrives.
 */
export function ProductDetailsSkeleton() {
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <Card className="overflow-hidden">
        <span role="status" className="sr-only">
          Loading the product...
        </span>
        <div aria-hidden="true" className="grid md:grid-cols-2">
          <div className="aspect-square animate-pulse bg-gray-100 md:aspect-auto" />
          <div className="flex min-w-0 flex-col gap-5 p-6 sm:p-8">
            {/* The product's id wraps on a phone. */}
            <Bar className="h-8 w-2/3 sm:h-4" />
            <Bar className="h-8 w-1/2 sm:h-9" />
            <Bar className="h-9 w-1/3" />
            <div className="space-y-2">
              <Bar className="h-5 w-24" />
              <Bar className="h-4 w-full" />
              <Bar className="h-4 w-5/6" />
            </div>
            {/* Availability, price, stock, SKU and barcode. */}
            <div className="h-[14.5rem] rounded-xl ring-1 ring-gray-200" />
            {/* Where its stock is: a heading and its locations (the default one at least). */}
            <div className="space-y-2">
              <Bar className="h-4 w-20" />
              <Bar className="h-4 w-full" />
            </div>
            {/* Adjust stock: the stepper, then a reason and a note. */}
            <div className="space-y-2">
              <Bar className="h-5 w-24" />
              <Bar className="h-11 w-64" />
              <div className="mt-3 grid gap-3 sm:grid-cols-[12rem_1fr]">
                <Bar className="h-[4.25rem]" />
                <Bar className="h-[4.25rem]" />
              </div>
            </div>
            <div className="mt-auto flex flex-wrap gap-3 pt-2">
              <Bar className="h-10 w-32" />
              <Bar className="h-10 w-28" />
              <Bar className="h-10 w-40" />
            </div>
          </div>
        </div>
      </Card>
    </div>
  );
}

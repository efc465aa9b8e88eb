import { Link, useParams } from 'react-router';
import { Card } from '@/components/ui/Card.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { paths } from '@/lib/paths.js';
import { useActivity } from '../api/get-activity.js';
import { ActivityList } from './ActivityList.js';

/** How many of a product's latest entries its page shows. */
const SHOWN = 5;

/**
 * A product's own activity under its page: its last changes with 'Undo', and 'All activity', the
 * Activity screen narrowed to the product. Loaded after the page is drawn, below everything.
 */
export function ProductActivity() {
  const { productId = '' } = useParams();
  const catalogue = useCatalogueRef();
  const activity = useActivity(catalogue, { product: productId }, SHOWN);
  const entries = activity.data?.pages[0]?.entries ?? [];
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="product-activity-heading">
        <div className="flex items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <h2 id="product-activity-heading" className="text-lg font-semibold text-gray-900">
            Activity
          </h2>
          <Link
            to={paths.activity.getHref(catalogue, { product: productId })}
            className="text-sm font-semibold text-indigo-700 hover:underline"
          >
            All activity
          </Link>
        </div>
        {activity.isPending ? (
          <p className="px-4 pb-4 text-sm text-gray-600 sm:px-6">Loading activity...</p>
        ) : entries.length === 0 ? (
          <p className="px-4 pb-4 text-sm text-gray-600 sm:px-6">No activity yet.</p>
        ) : (
          <ActivityList catalogue={catalogue} entries={entries} />
        )}
      </section>
    </Card>
  );
}

import { useParams } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { isActive } from '@/lib/counts/count-status.js';
import { formatDateTime } from '@/lib/format.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { paths } from '@/lib/paths.js';
import { useCount } from '../api/counts.js';
import { CountActions } from './CountActions.js';
import { CountLineForm } from './CountLineForm.js';
import { CountLines } from './CountLines.js';
import { CountReview } from './CountReview.js';
import { scopeText, statusText } from './count-texts.js';
import { useQueuedLines } from './use-count-line.js';
import { ItemHeading } from '@/components/ui/ItemHeading.js';

/** The locations lines may be counted at: the scope's location and those under it, or all. */
function placesOf(
  tree: readonly { id: string; parentId: string | null; path: string; isDefault: boolean }[],
  scopeLocation: string | undefined,
) {
  if (scopeLocation === undefined) {
    // The default location first: where stock without another place is.
    return [...tree].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  }
  const within = new Set([scopeLocation]);
  // Parents come before their children, so one pass finds every descendant.
  for (const location of tree) {
    if (location.parentId !== null && within.has(location.parentId)) within.add(location.id);
  }
  return tree.filter((location) => within.has(location.id));
}

/**
 * `/counts/:countId`: a count's lines as they come in (other counters' within a second, through
 * the live events), counting a product typed here, and the review, posting, cancelling or undoing
 * that the status allows.
 */
export function CountScreen() {
  const catalogue = useCatalogueRef();
  const { countId = '' } = useParams();
  const may = useCatalogueCan();
  const read = useCount(catalogue, countId);
  const tree = useLocations(catalogue).data ?? [];
  const queued = useQueuedLines(countId);
  const pages = read.data?.pages ?? [];
  const [first] = pages;
  if (!first) {
    return (
      <p className="text-sm text-gray-600">
        {read.isPending ? 'Loading count…' : 'Count not found'}
      </p>
    );
  }
  const { count } = first;
  const pathById = new Map(tree.map((location) => [location.id, location.path]));
  const pathOf = (id: string) => pathById.get(id) ?? '';
  const lines = pages.flatMap((page) => page.lines);
  const counting = isActive(count) && may('countStock');
  const places = placesOf(
    tree,
    count.scope.kind === 'location' ? count.scope.locationId : undefined,
  );
  return (
    <div className="mx-auto max-w-4xl min-w-0 space-y-6">
      <ItemHeading
        name={count.name}
        back={{ to: paths.counts.list.getHref(catalogue), label: 'All counts' }}
        description={
          <>
            {scopeText(count.scope)} · <strong>{statusText(count.status)}</strong>
            {count.blind && ' · Blind'} · Started {formatDateTime(count.createdAt)}
            {count.createdBy && ` by ${count.createdBy.name}`}
          </>
        }
      >
        {first.expectedHidden && isActive(count) && (
          <p className="mt-1 text-sm text-gray-600">
            A blind count: the expected quantities show at the review.
          </p>
        )}
      </ItemHeading>
      <CountActions count={count} manage={may('manageCounts')} />
      {counting && <CountLineForm countId={countId} places={places} />}
      <CountReview summary={first.summary} uncounted={first.uncounted} pathOf={pathOf} />
      {queued.length > 0 && (
        <Card className="p-4 sm:p-6">
          <h2 className="text-base font-semibold text-amber-900">Waiting to be sent</h2>
          <ul aria-label="Waiting to be sent" className="mt-2 space-y-1 text-sm text-gray-900">
            {queued.map(({ key, line }) => (
              <li key={key}>
                {line.productName} at {line.locationPath}:{' '}
                {line.add ? `+${line.counted}` : line.counted}
              </li>
            ))}
          </ul>
        </Card>
      )}
      <Card className="p-0">
        <h2 className="px-4 pt-4 text-base font-semibold text-gray-900 sm:px-6">
          Lines ({count.lines})
        </h2>
        <CountLines
          countId={countId}
          lines={lines}
          showsExpected={!first.expectedHidden}
          recount={count.status === 'review' && may('countStock')}
          pathOf={pathOf}
        />
        {lines.length === 0 && <p className="p-4 text-sm text-gray-600">Nothing counted yet.</p>}
        {read.hasNextPage && (
          <div className="p-4">
            <Button
              variant="secondary"
              busy={read.isFetchingNextPage}
              busyLabel="Loading..."
              onClick={() => void read.fetchNextPage()}
            >
              Load more
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}

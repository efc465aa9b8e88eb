import type { CountDetail } from '@shared/schemas/counts/counts.js';
import { Card } from '@/components/ui/Card.js';
import { formatCount, formatPrice, formatUnits } from '@/lib/format.js';
import { signed } from './count-texts.js';

/**
 * What the differences add up to (in units, at cost, and what they are worth whichever way they
 * go) and the places of the scope that no line counted: only where the API gives them.
 */
export function CountReview({
  summary,
  uncounted,
  pathOf,
}: Pick<CountDetail, 'summary' | 'uncounted'> & { pathOf: (locationId: string) => string }) {
  if (!summary && !uncounted) return null;
  return (
    <Card className="space-y-4 p-4 sm:p-6">
      <h2 className="text-base font-semibold text-gray-900">Review</h2>
      {summary && (
        <dl aria-label="Differences" className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-gray-600">Variance</dt>
            <dd className="text-lg font-semibold text-gray-900">
              {signed(summary.varianceUnits)}{' '}
              {Math.abs(summary.varianceUnits) === 1 ? 'unit' : 'units'}
            </dd>
          </div>
          <div>
            <dt className="text-gray-600">At cost</dt>
            <dd className="text-lg font-semibold text-gray-900">
              {formatPrice(summary.varianceValue)}
            </dd>
          </div>
          <div>
            <dt className="text-gray-600">Value of the differences</dt>
            <dd className="text-lg font-semibold text-gray-900">
              {formatPrice(summary.differenceValue)}
            </dd>
          </div>
        </dl>
      )}
      {uncounted && (
        <section aria-label="Never counted">
          <h3 className="text-sm font-semibold text-gray-900">
            Never counted: {formatCount(uncounted.total)}{' '}
            {uncounted.total === 1 ? 'place' : 'places'}
          </h3>
          {uncounted.places.length > 0 && (
            <ul className="mt-2 divide-y divide-gray-100 text-sm">
              {uncounted.places.map((place) => (
                <li
                  key={`${place.productId}:${place.locationId}`}
                  className="flex flex-wrap justify-between gap-x-3 py-1.5"
                >
                  <span className="min-w-0 wrap-anywhere text-gray-900">
                    {place.name} at {pathOf(place.locationId)}
                  </span>
                  {place.expected !== undefined && (
                    <span className="text-gray-700">{formatUnits(place.expected)} expected</span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {uncounted.total > uncounted.places.length && (
            <p className="mt-2 text-sm text-gray-600">
              And {formatCount(uncounted.total - uncounted.places.length)} more.
            </p>
          )}
        </section>
      )}
    </Card>
  );
}

import { Button } from '@/components/ui/Button.js';
import type { ScanLocation } from '../api/lookup-code.js';
import type { MoveDraft } from '../use-scan-session.js';

/** The current location, which the scans that follow apply at, and the way to leave it. */
export function CurrentPlace({
  place,
  hint,
  onClear,
}: {
  place: ScanLocation | undefined;
  /** Say that a location's label can be scanned (a catalogue that has some). */
  hint: boolean;
  onClear: () => void;
}) {
  if (!place) {
    return hint ? (
      <p className="text-sm text-gray-600">Scan a location's label to work there.</p>
    ) : null;
  }
  return (
    <section
      aria-label="Current location"
      className="flex items-center gap-3 rounded-lg bg-indigo-50 px-4 py-2 ring-1 ring-indigo-200"
    >
      <p className="min-w-0 flex-1 text-base wrap-anywhere text-indigo-950">
        At <strong>{place.path}</strong>
      </p>
      <Button variant="secondary" onClick={onClear}>
        Clear
      </Button>
    </section>
  );
}

/** Move's steps as far as they went: where from, what, and what to scan next. */
export function MovePanel({
  draft,
  onRemove,
  onClear,
}: {
  draft: MoveDraft;
  onRemove: (productId: string) => void;
  onClear: () => void;
}) {
  const next = !draft.from
    ? 'Scan the location to take from.'
    : draft.lines.length === 0
      ? 'Scan the products to move.'
      : 'Scan more products, or the location they go to.';
  return (
    <section
      aria-label="Move"
      className="space-y-2 rounded-lg bg-indigo-50 px-4 py-3 ring-1 ring-indigo-200"
    >
      {draft.from && (
        <p className="text-base wrap-anywhere text-indigo-950">
          From <strong>{draft.from.path}</strong>
        </p>
      )}
      {draft.lines.length > 0 && (
        <ul aria-label="To move" className="divide-y divide-indigo-100 text-sm">
          {draft.lines.map(({ product, quantity }) => (
            <li key={product.id} className="flex items-center gap-3 py-1">
              <span className="min-w-0 flex-1 wrap-anywhere text-gray-900">{product.name}</span>
              <span className="font-semibold tabular-nums">{quantity}</span>
              <button
                type="button"
                className="text-sm text-indigo-700 underline"
                aria-label={`Remove ${product.name}`}
                onClick={() => onRemove(product.id)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm font-medium text-indigo-900">{next}</p>
      {draft.from && (
        <Button variant="secondary" onClick={onClear}>
          Start again
        </Button>
      )}
    </section>
  );
}

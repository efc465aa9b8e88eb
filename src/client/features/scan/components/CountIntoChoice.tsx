import { useEffect } from 'react';
import { SelectField } from '@/components/ui/Field.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { isActive } from '@/lib/counts/count-status.js';
import { useCounts } from '@/lib/counts/counts-query.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import type { CountInto } from '../use-count-into.js';

/**
 * Count mode's target: the product's stock set at once, or a line of an open count (its review
 * included: a recount) that the reviewer posts later. The counts and the tree are those this
 * device last read, so the choice stays offline.
 */
export function CountIntoChoice({
  value,
  onChange,
}: {
  value: CountInto | undefined;
  onChange: (into: CountInto | undefined) => void;
}) {
  const catalogue = useCatalogueRef();
  const counts = (useCounts(catalogue).data ?? []).filter(isActive);
  const tree = useLocations(catalogue).data ?? [];
  const into = (id: string): CountInto | undefined => {
    const count = counts.find((one) => one.id === id);
    if (!count) return undefined;
    const at =
      count.scope.kind === 'location'
        ? tree.find(
            (location) => location.id === (count.scope as { locationId: string }).locationId,
          )
        : tree.find((location) => location.isDefault);
    return { id, location: at && { id: at.id, path: at.path, code: at.code } };
  };
  const gone = value !== undefined && !counts.some((count) => count.id === value.id);
  useEffect(() => {
    // A count posted or cancelled meanwhile: back to setting stock.
    if (gone && counts.length > 0) onChange(undefined);
  });
  if (counts.length === 0 && value === undefined) return null;
  return (
    <SelectField
      label="Count into"
      id="scan-count-into"
      value={value?.id ?? ''}
      onChange={(event) => onChange(into(event.target.value))}
    >
      <option value="">Stock directly (set each product's stock)</option>
      {counts.map((count) => (
        <option key={count.id} value={count.id}>
          {count.name}
        </option>
      ))}
    </SelectField>
  );
}

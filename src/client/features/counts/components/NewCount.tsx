import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FormFailure } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { SelectField, TextField } from '@/components/ui/Field.js';
import { Segmented } from '@/components/controls/Segmented.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { paths } from '@/lib/paths.js';
import { useStartCount } from '../api/counts.js';

type ScopeKind = 'location' | 'tag' | 'catalogue';

const KINDS: readonly { value: ScopeKind; label: string }[] = [
  { value: 'location', label: 'Location' },
  { value: 'tag', label: 'Tag' },
  { value: 'catalogue', label: 'Whole catalogue' },
];

/** 'New count': what to count (a location with its sub-locations, a tag, everything), blind or not. */
export function NewCount() {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const locations = useLocations(catalogue).data ?? [];
  const start = useStartCount(catalogue);
  const [kind, setKind] = useState<ScopeKind>('location');
  const [name, setName] = useState('');
  const [locationId, setLocationId] = useState('');
  const [tag, setTag] = useState('');
  const [blind, setBlind] = useState(false);
  const chosenLocation = locationId || locations[0]?.id || '';
  const scope =
    kind === 'location'
      ? { kind, locationId: chosenLocation }
      : kind === 'tag'
        ? { kind, tag }
        : { kind };
  const ready =
    kind === 'location' ? chosenLocation !== '' : kind === 'tag' ? tag.trim() !== '' : true;
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-base font-semibold text-gray-900">New count</h2>
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          start.mutate(
            { ...(name.trim() ? { name } : {}), scope, blind },
            {
              onSuccess: ({ count }) =>
                void navigate(paths.counts.count.getHref(count.id, catalogue)),
            },
          );
        }}
      >
        <Segmented label="What to count" options={KINDS} value={kind} onChange={setKind} />
        {kind === 'location' && (
          <SelectField
            label="Location"
            hint="With its sub-locations."
            id="count-location"
            value={chosenLocation}
            onChange={(event) => setLocationId(event.target.value)}
          >
            {locations.map((location) => (
              <option key={location.id} value={location.id}>
                {location.path}
              </option>
            ))}
          </SelectField>
        )}
        {kind === 'tag' && (
          <TextField label="Tag" value={tag} onChange={(event) => setTag(event.target.value)} />
        )}
        <TextField
          label="Name"
          hint="Optional: one is made from what is counted."
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <label className="flex items-start gap-2 text-sm text-gray-900">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-gray-300"
            checked={blind}
            onChange={(event) => setBlind(event.target.checked)}
          />
          <span>
            Blind count
            <span className="block text-gray-600">
              Counters do not see the expected quantities until the review.
            </span>
          </span>
        </label>
        <FormFailure message={start.error ? getErrorMessage(start.error) : undefined} />
        <Button type="submit" disabled={!ready} busy={start.isPending} busyLabel="Starting...">
          Start count
        </Button>
      </form>
    </Card>
  );
}

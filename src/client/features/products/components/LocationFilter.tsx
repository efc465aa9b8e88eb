import { LocationSelect } from '@/components/locations/LocationSelect.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useLocations } from '@/lib/locations/locations-query.js';

/**
 * The list's location filter, loaded once asked for (or with a list filtered by one): the
 * catalogue's locations by path, 'All locations' first. A location includes those under it.
 */
export default function LocationFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  const tree = useLocations(useCatalogueRef());
  if (!tree.data) return <span className="text-sm text-gray-600">Loading locations…</span>;
  return (
    <LocationSelect
      label="Location"
      className="max-w-xs"
      none="All locations"
      options={tree.data}
      value={value ?? ''}
      onChange={(id) => onChange(id || undefined)}
    />
  );
}

import { Link } from 'react-router';
import { Card } from '@/components/ui/Card.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatUnits } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { useLocationChange, useLocations } from '../api/locations.js';
import { LocationFields, LocationFormCard } from './LocationFields.js';
import { PrintLocationLabels } from './PrintLocationLabels.js';
import { treeRows } from './tree.js';

/**
 * `/locations` and `/catalogues/:catalogueId/locations`: the catalogue's tree of places, each with
 * its code and the units held in it and below it; editors add locations here.
 */
export function LocationsScreen() {
  const catalogue = useCatalogueRef();
  const may = useCatalogueCan();
  const locations = useLocations(catalogue);
  const change = useLocationChange(catalogue);
  const rows = treeRows(locations.data ?? []);
  return (
    <div className="mx-auto max-w-3xl min-w-0 space-y-6">
      <ScreenHeading
        title="Locations"
        description="Where the stock is: warehouses, aisles, shelves and bins, each with a code to scan."
        actions={
          rows.length > 0 && (
            <PrintLocationLabels ids={rows.map((row) => row.id)} label="Print all labels" />
          )
        }
      />
      <Card className="p-0">
        <ul aria-label="Locations" className="divide-y divide-gray-100">
          {rows.map((row) => (
            <li
              key={row.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3 pr-4"
              style={{ paddingLeft: `${1 + row.depth * 1.5}rem` }}
            >
              <Link
                to={paths.locations.location.getHref(row.id, catalogue)}
                className="min-w-0 font-medium break-words text-indigo-700 hover:underline"
              >
                {row.name}
              </Link>
              {row.isDefault && (
                <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-700">
                  Default
                </span>
              )}
              <code className="text-xs text-gray-600">{row.code}</code>
              <span className="ml-auto text-sm text-gray-700">{formatUnits(row.unitsWithin)}</span>
            </li>
          ))}
        </ul>
        {locations.isPending && <p className="p-4 text-sm text-gray-600">Loading locations…</p>}
      </Card>
      {may('manageLocations') && (
        <LocationFormCard title="Add a location">
          <LocationFields
            rows={rows}
            submitLabel="Add location"
            busyLabel="Adding..."
            onSubmit={(body) => change.mutateAsync({ kind: 'create', body })}
          />
        </LocationFormCard>
      )}
    </div>
  );
}

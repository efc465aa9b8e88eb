import { useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/Button.js';
import { Card } from '@/components/ui/Card.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatUnits } from '@/lib/format.js';
import { notifyError } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useLocationChange, useLocations } from '../api/locations.js';
import { LocationFields, LocationFormCard } from './LocationFields.js';
import { PrintLocationLabels } from './PrintLocationLabels.js';
import { treeRows } from './tree.js';
import { ItemHeading } from '@/components/ui/ItemHeading.js';
import { LinkedAmounts } from '@/components/ui/LinkedAmounts.js';

/**
 * `/locations/:locationId`: one location, its code and label, what is held in it and below it,
 * and its sub-locations; editors rename, move and delete it here.
 */
export function LocationScreen() {
  const catalogue = useCatalogueRef();
  const { locationId } = useParams();
  const navigate = useNavigate();
  const may = useCatalogueCan();
  const locations = useLocations(catalogue);
  const change = useLocationChange(catalogue);
  const rows = treeRows(locations.data ?? []);
  const location = rows.find((row) => row.id === locationId);
  if (!location) {
    return (
      <p className="text-sm text-gray-600">
        {locations.isPending ? 'Loading location…' : 'Location not found'}
      </p>
    );
  }
  const children = rows.filter((row) => row.parentId === location.id);
  const remove = async () => {
    const confirmed = await confirmAction(
      'Delete this location?',
      `${location.path} will be gone.`,
      'Yes, delete it!',
    );
    if (!confirmed) return;
    try {
      await change.mutateAsync({ kind: 'delete', id: location.id });
      await navigate(paths.locations.list.getHref(catalogue));
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <div className="mx-auto max-w-3xl min-w-0 space-y-6">
      <ItemHeading
        name={location.path}
        back={{ to: paths.locations.list.getHref(catalogue), label: 'All locations' }}
        description={
          <>
            Code <code>{location.code}</code> · {formatUnits(location.unitsWithin)} held here and
            below
            {location.isDefault && ' · the default location, where stock without another one is'}
          </>
        }
      />
      <PrintLocationLabels ids={[location.id]} label="Print label" />
      {children.length > 0 && (
        <Card className="p-4 sm:p-6">
          <h2 className="text-base font-semibold text-gray-900">Inside</h2>
          <LinkedAmounts
            label="Sub-locations"
            items={children}
            href={(child) => paths.locations.location.getHref(child.id, catalogue)}
            amount={(child) => formatUnits(child.unitsWithin)}
          />
        </Card>
      )}
      {may('manageLocations') && (
        <LocationFormCard title="Rename or move">
          <LocationFields
            key={location.id}
            rows={rows}
            location={location}
            submitLabel="Save"
            busyLabel="Saving..."
            onSubmit={(body) => change.mutateAsync({ kind: 'update', id: location.id, body })}
          />
          {!location.isDefault && (
            <Button variant="destructive" onClick={() => void remove()}>
              Delete location
            </Button>
          )}
        </LocationFormCard>
      )}
    </div>
  );
}

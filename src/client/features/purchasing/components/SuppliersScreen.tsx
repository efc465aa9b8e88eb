import { useState } from 'react';
import type { Supplier } from '@shared/schemas/purchasing/suppliers.js';
import { Button } from '@/components/ui/Button.js';
import { Card, CardSection } from '@/components/ui/Card.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { confirmAction } from '@/components/dialogs/confirm-action.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { notifyError } from '@/lib/notify.js';
import { useSupplierChange, useSuppliers } from '../api/suppliers.js';
import { SupplierForm } from './SupplierForm.js';
import { ListStatus } from '@/components/ui/ListStatus.js';

/**
 * `/suppliers` and `/catalogues/:catalogueId/suppliers`: whom the catalogue buys from. Every member
 * reads the list; editors and above add, edit and delete suppliers.
 */
export function SuppliersScreen() {
  const catalogue = useCatalogueRef();
  const mayManage = useCatalogueCan()('managePurchasing');
  const suppliers = useSuppliers(catalogue);
  const change = useSupplierChange(catalogue);
  const [editing, setEditing] = useState<string>();

  const remove = async (supplier: Supplier) => {
    const confirmed = await confirmAction(
      'Delete this supplier?',
      `${supplier.name} will be gone, and its products will forget it.`,
      'Yes, delete it!',
    );
    if (!confirmed) return;
    try {
      await change.mutateAsync({ kind: 'delete', id: supplier.id });
    } catch (error) {
      notifyError(error);
    }
  };

  const list = suppliers.data ?? [];
  return (
    <div className="mx-auto max-w-3xl min-w-0 space-y-6">
      <ScreenHeading
        title="Suppliers"
        description="Whom the catalogue buys from: purchase orders are made out and sent to them."
      />
      <Card className="p-0">
        <ul aria-label="Suppliers" className="divide-y divide-gray-100">
          {list.map((supplier) => (
            <li key={supplier.id} className="space-y-3 px-4 py-3">
              {editing === supplier.id ? (
                <SupplierForm
                  supplier={supplier}
                  submitLabel="Save"
                  busyLabel="Saving..."
                  onCancel={() => setEditing(undefined)}
                  onSubmit={async (body) => {
                    await change.mutateAsync({ kind: 'update', id: supplier.id, body });
                    setEditing(undefined);
                  }}
                />
              ) : (
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words text-gray-900">{supplier.name}</p>
                    <p className="text-sm break-words text-gray-600">
                      {[supplier.email, supplier.phone].filter(Boolean).join(' · ') ||
                        'No e-mail or phone'}
                    </p>
                    {supplier.notes && (
                      <p className="text-sm whitespace-pre-line text-gray-600">{supplier.notes}</p>
                    )}
                  </div>
                  {mayManage && (
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        aria-label={`Edit ${supplier.name}`}
                        onClick={() => setEditing(supplier.id)}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="danger"
                        aria-label={`Delete ${supplier.name}`}
                        onClick={() => void remove(supplier)}
                      >
                        Delete
                      </Button>
                    </div>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
        <ListStatus query={suppliers} loading="Loading suppliers…" empty="No suppliers yet." />
      </Card>
      {mayManage && (
        <CardSection id="add-supplier" title="Add a supplier" className="space-y-4">
          <SupplierForm
            submitLabel="Add supplier"
            busyLabel="Adding..."
            onSubmit={(body) => change.mutateAsync({ kind: 'create', body })}
          />
        </CardSection>
      )}
    </div>
  );
}

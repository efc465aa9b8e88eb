import type { ReactNode } from 'react';
import { can } from '@shared/catalogue-roles.js';
import type { Catalogue } from '@shared/schemas/catalogues.js';
import { CardSection } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { FormSubmitButton, FormTextField } from '@/components/forms/FormField.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogues } from '@/lib/catalogues/get-catalogues.js';
import { useZodForm } from '@/lib/forms/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { tabTitle } from '@/lib/texts.js';
import { useRenameCatalogue } from '../api/rename-catalogue.js';
import { useSetCatalogueReorderPoint } from '../api/set-catalogue-reorder-point.js';
import { InviteSection } from './InviteSection.js';
import { LeaveOrEnd } from './LeaveOrEnd.js';
import { MembersSection } from './MembersSection.js';

const reorderPointSchema = () =>
  import('@shared/schemas/catalogues.js').then((m) => m.reorderPointFormSchema);
const nameSchema = () => import('@shared/schemas/catalogues.js').then((m) => m.catalogueBodySchema);

/**
 * `/catalogues/:catalogueId/settings`: the catalogue's name, its members and their roles, the
 * invitations, and leaving, handing over or deleting it. Each part shows to the roles that may
 * use it; the owner's own catalogue cannot be left, handed over or deleted.
 */
export function CatalogueSettings({
  extra,
}: {
  /** Sections of other features, after the invitations (app/ composes them). */
  extra?: (catalogue: Catalogue) => ReactNode;
} = {}) {
  const catalogueId = useCatalogueRef() ?? '';
  const catalogues = useCatalogues();
  const catalogue = catalogues.data?.find(({ id }) => id === catalogueId);
  if (!catalogue) return <PageSpinner label="Loading the catalogue..." />;
  return <Settings key={catalogue.id} catalogue={catalogue} extra={extra} />;
}

function Settings({
  catalogue,
  extra,
}: {
  catalogue: Catalogue;
  extra: ((catalogue: Catalogue) => ReactNode) | undefined;
}) {
  const { role } = catalogue;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <title>{tabTitle(`${catalogue.name} settings`)}</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight wrap-anywhere text-gray-900 sm:text-3xl">
          Catalogue settings
        </h1>
        <p className="mt-1 text-sm text-gray-600">
          {catalogue.personal ? 'Your personal catalogue.' : 'A shared catalogue.'}
        </p>
      </div>
      <NameSection catalogue={catalogue} />
      {can(role, 'renameCatalogue') && <ReorderPointSection catalogue={catalogue} />}
      <MembersSection catalogue={catalogue} />
      {can(role, 'manageMembers') && <InviteSection catalogue={catalogue} />}
      {extra?.(catalogue)}
      <LeaveOrEnd catalogue={catalogue} />
    </div>
  );
}

/** The name: a form for those who may rename it, the name itself for the others. */
function NameSection({ catalogue }: { catalogue: Catalogue }) {
  const form = useZodForm(nameSchema, { defaultValues: { name: catalogue.name } });
  const rename = useRenameCatalogue({
    mutationConfig: {
      onSuccess: ({ message, catalogue: renamed }) => {
        notifySuccess(message);
        form.reset({ name: renamed.name });
      },
    },
  });
  return (
    <CardSection id="catalogue-name" title="Name">
      {can(catalogue.role, 'renameCatalogue') ? (
        <form
          noValidate
          onFocus={form.preload}
          onSubmit={form.submit((values) =>
            rename.mutateAsync({ catalogueId: catalogue.id, name: values.name }),
          )}
          className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start"
        >
          <FormTextField form={form} name="name" label="Catalogue name" className="flex-1" />
          <FormSubmitButton form={form} busyLabel="Renaming..." className="sm:mt-8">
            Rename
          </FormSubmitButton>
        </form>
      ) : (
        <p className="mt-2 text-gray-900 wrap-anywhere">{catalogue.name}</p>
      )}
    </CardSection>
  );
}

/** The point of the products that set none of their own, for those who may rename it. */
function ReorderPointSection({ catalogue }: { catalogue: Catalogue }) {
  const defaultValues = { reorderPoint: String(catalogue.reorderPoint) };
  const form = useZodForm(reorderPointSchema, { defaultValues });
  const save = useSetCatalogueReorderPoint({
    mutationConfig: {
      onSuccess: ({ message, catalogue: saved }) => {
        notifySuccess(message);
        form.reset({ reorderPoint: String(saved.reorderPoint) });
      },
    },
  });
  return (
    <CardSection id="catalogue-reorder-point" title="Reorder point">
      <form
        noValidate
        onFocus={form.preload}
        onSubmit={form.submit((values) =>
          save.mutateAsync({
            catalogueId: catalogue.id,
            reorderPoint: Number(values.reorderPoint.trim()),
          }),
        )}
        className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start"
      >
        <FormTextField
          form={form}
          name="reorderPoint"
          label="Default reorder point"
          type="number"
          inputMode="numeric"
          step="1"
          min="0"
          hint="A product is to reorder at or below its own point, or this one."
          className="flex-1"
        />
        <FormSubmitButton form={form} busyLabel="Saving..." className="sm:mt-8">
          Save
        </FormSubmitButton>
      </form>
    </CardSection>
  );
}

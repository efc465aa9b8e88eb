import { Link, useNavigate } from 'react-router';
import { FormSubmitButton, FormTextField } from '@/components/forms/FormField.js';
import { Card, CardSection } from '@/components/ui/Card.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogues } from '@/lib/catalogues/get-catalogues.js';
import { useZodForm } from '@/lib/forms/form.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useCreateCatalogue } from '../api/create-catalogue.js';
import { RoleBadge } from './RoleBadge.js';

const nameSchema = () => import('@shared/schemas/catalogues.js').then((m) => m.catalogueBodySchema);

const members = (count: number) => (count === 1 ? '1 member' : `${count} members`);

/** `/catalogues`: the user's catalogues with their role and members, and a new one. */
export function CataloguesScreen() {
  const catalogues = useCatalogues();
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <ScreenHeading
        title="Your catalogues"
        tab="Catalogues"
        description="Your own catalogue, and those you share with others."
      />
      <Card className="overflow-hidden">
        {catalogues.isPending ? (
          <PageSpinner label="Loading your catalogues..." />
        ) : catalogues.isError && !catalogues.data ? (
          <p role="alert" className="px-6 py-8 text-center font-medium text-red-700">
            {getErrorMessage(catalogues.error)}
          </p>
        ) : (
          <ul className="divide-y divide-gray-200">
            {catalogues.data.map((catalogue) => (
              <li
                key={catalogue.id}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-4 sm:px-6"
              >
                <Link
                  to={paths.products.list.getHref(catalogue.personal ? undefined : catalogue.id)}
                  className="min-w-0 truncate font-semibold text-gray-900 hover:text-indigo-700 hover:underline"
                >
                  {catalogue.name}
                </Link>
                <RoleBadge role={catalogue.role} />
                {catalogue.personal && <span className="text-xs text-gray-600">Personal</span>}
                <span className="text-sm text-gray-600">{members(catalogue.members)}</span>
                <Link
                  to={paths.catalogue.settings.getHref(catalogue.id)}
                  aria-label={`Settings of ${catalogue.name}`}
                  className="ml-auto text-sm font-semibold text-indigo-700 hover:underline"
                >
                  Settings
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <CreateCatalogueForm />
    </div>
  );
}

/** 'New catalogue': its name; the user owns it, and lands on its settings to invite people. */
function CreateCatalogueForm() {
  const navigate = useNavigate();
  const form = useZodForm(nameSchema, { defaultValues: { name: '' } });
  const create = useCreateCatalogue({
    mutationConfig: {
      onSuccess: async ({ message, catalogue }) => {
        notifySuccess(message);
        await navigate(paths.catalogue.settings.getHref(catalogue.id));
      },
    },
  });
  return (
    <CardSection id="new-catalogue" title="New catalogue">
      <p className="mt-1 text-sm text-gray-600">
        A catalogue of its own, to share with a team. You will be its owner.
      </p>
      <form
        noValidate
        onFocus={form.preload}
        onSubmit={form.submit((values) => create.mutateAsync(values))}
        className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start"
      >
        <FormTextField form={form} name="name" label="Catalogue name" className="flex-1" />
        <FormSubmitButton form={form} busyLabel="Creating..." className="sm:mt-8">
          Create catalogue
        </FormSubmitButton>
      </form>
    </CardSection>
  );
}

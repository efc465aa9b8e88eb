import type { z } from 'zod';
import type { Supplier } from '@shared/schemas/purchasing/suppliers.js';
import { Button } from '@/components/ui/Button.js';
import { TextAreaField, TextField } from '@/components/ui/Field.js';
import { useZodForm } from '@/lib/forms/form.js';

const createSchema = () =>
  import('@shared/schemas/purchasing/suppliers.js').then((m) => m.supplierCreateSchema);
type CreateSchema = Awaited<ReturnType<typeof createSchema>>;
type Values = z.input<CreateSchema>;
type Output = z.output<CreateSchema>;

/**
 * A supplier's name, e-mail (where its orders are sent), phone and notes, checked by the API's own
 * schema before they go; the server's refusal (a name taken) shows as a toast.
 */
export function SupplierForm({
  supplier,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: {
  supplier?: Supplier;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const form = useZodForm<Values, Output>(
    createSchema,
    {
      defaultValues: {
        name: supplier?.name ?? '',
        email: supplier?.email ?? '',
        phone: supplier?.phone ?? '',
        notes: supplier?.notes ?? '',
      },
    },
    { preloadWhenShown: true },
  );
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={form.submit(async (values) => {
        await onSubmit(values);
        if (!supplier) form.reset();
      })}
    >
      <TextField
        label="Name"
        maxLength={100}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <TextField
        label="E-mail"
        type="email"
        hint="Where its purchase orders are sent."
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField label="Phone" error={errors.phone?.message} {...form.register('phone')} />
      <TextAreaField
        label="Notes"
        rows={2}
        error={errors.notes?.message}
        {...form.register('notes')}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={isSubmitting} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

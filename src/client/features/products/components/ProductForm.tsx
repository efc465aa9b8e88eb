import { useState } from 'react';
import type { z } from 'zod';
import { M } from '@shared/messages.js';
import type { ProductFormValues } from '@shared/schemas/product-forms.js';
import { Button } from '@/components/ui/Button.js';
import { FormTextAreaField, FormTextField } from '@/components/forms/FormField.js';
import { ProgressBar } from '@/components/forms/ProgressBar.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useZodForm } from '@/lib/forms/form.js';
import { OfflineRefusal } from '@/lib/needs-connection.js';
import { notifyError } from '@/lib/notify.js';
import type { ProductUpload } from '../api/product-multipart.js';
import { ImagePicker } from './ImagePicker.js';
import { TagsInput } from './TagsInput.js';
import { useCatalogueReorderPoint } from './use-catalogue-reorder-point.js';
import { useLeavePrompt } from './use-leave-prompt.js';

interface ProductFormProps {
  /** productFormSchema to create, productEditFormSchema to edit. */
  schema: z.ZodType<ProductFormValues, ProductFormValues>;
  defaultValues: ProductFormValues;
  /** The least stock the schema takes, for the field's `min`. */
  minStock: number;
  currentImage?: { url: string; alt: string } | undefined;
  submitLabel: string;
  busyLabel: string;
  /** Sends the form (a mutation: its onSuccess handles success); a failure becomes an error toast. */
  onSubmit: (upload: Required<ProductUpload>) => Promise<unknown>;
  /** What the form does, for the refusal said at once offline: 'Creating products'. */
  action: string;
}

/** The code field a 409 is about: the server's message names the SKU or the barcode. */
const CODE_FIELDS = new Map<unknown, 'sku' | 'barcode'>([
  [M.skuTaken, 'sku'],
  [M.skuIsLocation, 'sku'],
  [M.barcodeTaken, 'barcode'],
  [M.barcodeIsLocation, 'barcode'],
]);

function takenCodeField(error: unknown): 'sku' | 'barcode' | undefined {
  const response = (error as { response?: { status?: number; data?: { message?: unknown } } })
    ?.response;
  if (response?.status !== 409) return undefined;
  return CODE_FIELDS.get(response.data?.message);
}

/**
 * Name, Price, Stock, Cost, Reorder point, Tags, Product Image, Description and codes: the product
 * form.
 */
export function ProductForm({
  schema,
  defaultValues,
  minStock,
  currentImage,
  submitLabel,
  busyLabel,
  onSubmit,
  action,
}: ProductFormProps) {
  const [image, setImage] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useZodForm(schema, { defaultValues }, { preloadWhenShown: true });
  const cataloguePoint = useCatalogueReorderPoint();
  const leave = useLeavePrompt(form.formState.isDirty || image !== null);

  const submit = form.submit(
    async (values) => {
      setProgress(image ? 0 : null);
      try {
        await leave.whileSaving(() => onSubmit({ values, image, onProgress: setProgress }));
      } finally {
        setProgress(null);
      }
    },
    // A code another product has: said at its field too, where the user fixes it.
    (error) => {
      const field = takenCodeField(error);
      if (field) form.setError(field, { message: getErrorMessage(error) }, { shouldFocus: true });
    },
  );

  return (
    <form
      noValidate
      // Offline, said before anything else is tried (the checks' code may not even load): product
      // writes are never kept to send later, unlike stock changes.
      onSubmit={(event) => {
        if (navigator.onLine) return void submit(event);
        event.preventDefault();
        notifyError(new OfflineRefusal(action));
      }}
      className="space-y-6"
    >
      <FormTextField form={form} name="name" label="Name" />
      <div className="grid gap-6 sm:grid-cols-2">
        {/* No placeholders: an example value such as '0' would contradict the minimum. */}
        <FormTextField
          form={form}
          name="price"
          label="Price"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          adornment="$"
          hint="In US dollars, cents allowed."
        />
        <FormTextField
          form={form}
          name="stock"
          label="Stock"
          type="number"
          inputMode="numeric"
          step="1"
          min={String(minStock)}
          hint="Units on hand."
        />
        <FormTextField
          form={form}
          name="cost"
          label="Cost (optional)"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          adornment="$"
          hint="What one unit cost you: the summary values stock at cost."
        />
        <FormTextField
          form={form}
          name="reorderPoint"
          label="Reorder point"
          type="number"
          inputMode="numeric"
          step="1"
          min="0"
          placeholder={String(cataloguePoint)}
          hint={`Leave empty to use the catalogue's (${cataloguePoint})`}
        />
        <FormTextField
          form={form}
          name="reorderQuantity"
          label="Reorder quantity (optional)"
          type="number"
          inputMode="numeric"
          step="1"
          min="1"
          hint="How many to order when it reaches its reorder point."
        />
      </div>
      <TagsInput
        label="Tags (optional)"
        tags={form.watch('tags')}
        onChange={(tags) => form.setValue('tags', tags, { shouldDirty: true })}
        error={form.formState.errors.tags?.message}
      />
      <ImagePicker
        label="Product Image"
        currentImage={currentImage}
        disabled={form.formState.isSubmitting}
        onChange={setImage}
      />
      <FormTextAreaField form={form} name="description" label="Description" rows={5} />
      <div className="grid gap-6 sm:grid-cols-2">
        <FormTextField
          form={form}
          name="sku"
          label="SKU (optional)"
          autoComplete="off"
          spellCheck={false}
          hint="Your own code for it."
        />
        <FormTextField
          form={form}
          name="barcode"
          label="Barcode (optional)"
          autoComplete="off"
          spellCheck={false}
          hint="UPC, EAN or any code printed on it."
        />
      </div>
      {progress !== null && <ProgressBar value={progress} label="Uploading the image" />}
      <div className="flex justify-end border-t border-gray-200 pt-6">
        <Button type="submit" busy={form.formState.isSubmitting} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

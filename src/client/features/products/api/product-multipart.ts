import type { AxiosProgressEvent } from 'axios';
import type { ProductFormValues } from '@shared/schemas/product-forms.js';

export interface ProductUpload {
  values: ProductFormValues;
  /** Sent only when one was chosen. */
  image: File | null;
  /** Upload progress, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * The multipart body of create and update: name, price and stock as text, description, cost,
 * one `tags` field per tag, the codes, and the image only if chosen. Blank name, price, stock and
 * description are left out (on edit, blank means "unchanged"); so are blank codes, except on an
 * edit (`clearBlankCodes`), where a code emptied means "no code" and goes, empty.
 */
export function toProductFormData(
  { values, image }: ProductUpload,
  { clearBlankCodes = false } = {},
): FormData {
  const body = new FormData();
  for (const key of ['name', 'price', 'stock', 'description'] as const) {
    const value = values[key].trim();
    if (value !== '') body.append(key, value);
  }
  for (const key of ['sku', 'barcode'] as const) {
    const value = values[key]?.trim();
    if (value || (value !== undefined && clearBlankCodes)) body.append(key, value);
  }
  // Always sent: a blank cost clears it, one empty `tags` field clears the tags.
  body.append('cost', values.cost.trim());
  for (const tag of values.tags.length > 0 ? values.tags : ['']) body.append('tags', tag);
  // Blank is the catalogue's point: sent on an edit only (back to it), where an unchanged point
  // is left out of the values already.
  const point = values.reorderPoint?.trim();
  if (point || (point !== undefined && clearBlankCodes)) body.append('reorderPoint', point);
  // Blank is none, the same way.
  const quantity = values.reorderQuantity?.trim();
  if (quantity || (quantity !== undefined && clearBlankCodes))
    body.append('reorderQuantity', quantity);
  if (image) body.append('image', image);
  return body;
}

export const progressHandler =
  (onProgress: ProductUpload['onProgress']) => (event: AxiosProgressEvent) => {
    if (!onProgress) return;
    const fraction = event.progress ?? (event.total ? event.loaded / event.total : undefined);
    if (fraction !== undefined) onProgress(fraction);
  };

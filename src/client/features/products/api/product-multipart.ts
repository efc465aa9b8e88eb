import type { AxiosProgressEvent } from 'axios';
import type { ProductFormValues } from '@shared/schemas/products.js';

export interface ProductUpload {
  values: ProductFormValues;
  /** Sent only when one was chosen. */
  image: File | null;
  /** Upload progress, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * The multipart body of create and update: name, price and stock as text, description, the
 * codes, and the image only if chosen. Blank fields are left out (on edit, blank means
 * "unchanged"), except the codes of an edit (`clearBlankCodes`): there a code emptied means
 * "no code", so it goes, empty.
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
  if (image) body.append('image', image);
  return body;
}

export const progressHandler =
  (onProgress: ProductUpload['onProgress']) => (event: AxiosProgressEvent) => {
    if (!onProgress) return;
    const fraction = event.progress ?? (event.total ? event.loaded / event.total : undefined);
    if (fraction !== undefined) onProgress(fraction);
  };

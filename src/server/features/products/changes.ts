import type { ProductRow } from './rows.js';

/** The fields an edit can change, as an activity entry names them, and their columns. */
export const EDITABLE = {
  name: 'name',
  description: 'description',
  price: 'price_cents',
  stock: 'stock',
  cost: 'cost_cents',
  sku: 'sku',
  barcode: 'barcode',
  tags: 'tags',
  image: 'image_key',
} as const satisfies Record<string, keyof ProductRow>;
export type EditableField = keyof typeof EDITABLE;

/** A field's value as an activity entry shows it (tags as a list, an image as whether there is one). */
export function shownValue(
  field: EditableField,
  row: Pick<ProductRow, (typeof EDITABLE)[EditableField]>,
): unknown {
  const value = row[EDITABLE[field]];
  if (field === 'tags') return JSON.parse(value as string) as unknown;
  if (field === 'image') return value !== null;
  return value;
}

/**
 * What an edit changed: each field whose value differs, before and after (prices in cents, tags
 * as a list; an image as whether there is one, since its key means nothing to a reader).
 */
export function changedFields(before: ProductRow, after: ProductRow) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of Object.keys(EDITABLE) as EditableField[]) {
    if (before[EDITABLE[field]] === after[EDITABLE[field]]) continue;
    changes[field] = { before: shownValue(field, before), after: shownValue(field, after) };
  }
  return changes;
}

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
  reorderPoint: 'reorder_point',
  reorderQuantity: 'reorder_quantity',
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

/** A picture as a product's row holds it. */
interface Picture {
  key: string | null;
  width: number | null;
  height: number | null;
}

/** The pictures before and after an edit that replaced one. */
export interface PictureChange {
  before: Picture;
  after: Picture;
}

const pictureOf = (row: ProductRow): Picture => ({
  key: row.image_key,
  width: row.image_width,
  height: row.image_height,
});

/**
 * What an edit that replaced the picture keeps for its undo: both pictures (an entry shows only
 * whether there is one), and the replaced one's key, which keeps its files from the orphan sweep
 * while the edit can be undone.
 */
export function replacedPicture(done: { before: ProductRow; row: ProductRow }) {
  if (done.before.image_key === done.row.image_key) return {};
  const picture: PictureChange = { before: pictureOf(done.before), after: pictureOf(done.row) };
  return { snapshot: { picture }, imageKey: done.before.image_key };
}

import { randomUUID } from 'node:crypto';
import type { DB } from '../../infra/db/handle.js';
import { tagKey } from '../../../shared/tags.js';
import { codeKeys } from './codes.js';
import { nameKey, searchKey } from './keys.js';
import { BATCH_ROWS, type NewProduct, type ProductInsert } from './rows.js';

/** A product's name and description with the keys derived from them (a search finds codes too). */
export const textColumns = (
  name: string,
  description: string,
  codes: { sku_key: string | null; barcode_key: string | null },
) => ({
  name,
  name_key: nameKey(name),
  description,
  search_key: searchKey(name, description, [codes.sku_key, codes.barcode_key]),
});

/** A new product's row with a fresh id, as one insert or a bulk load writes it. */
export function newProductRow(
  catalogueId: string,
  actorId: string | null,
  product: NewProduct,
  now: number,
): ProductInsert & { created_by: string | null; updated_by: string | null } {
  const keys = codeKeys(product);
  return {
    id: randomUUID(),
    catalogue_id: catalogueId,
    created_by: actorId,
    updated_by: actorId,
    ...textColumns(product.name, product.description, keys),
    price_cents: product.priceCents,
    stock: product.stock,
    active: 1,
    image_key: product.image?.key ?? null,
    image_width: product.image?.width ?? null,
    image_height: product.image?.height ?? null,
    tags: JSON.stringify(product.tags ?? []),
    cost_cents: product.costCents ?? null,
    reorder_point: product.reorderPoint ?? null,
    reorder_quantity: product.reorderQuantity ?? null,
    created_at: now,
    updated_at: now,
    sku: product.sku ?? null,
    barcode: product.barcode ?? null,
    ...keys,
  };
}

/** The folded tags of new rows (their `tags` column holds them as written). */
export async function insertTags(
  trx: DB,
  catalogueId: string,
  rows: { id: string; tags: string }[],
) {
  const tagRows = rows.flatMap((row) =>
    (JSON.parse(row.tags) as string[]).map((tag) => ({
      product_id: row.id,
      catalogue_id: catalogueId,
      tag_key: tagKey(tag),
    })),
  );
  // 3 values a row: well under either engine's limit on bound parameters.
  for (let i = 0; i < tagRows.length; i += BATCH_ROWS) {
    await trx
      .insertInto('product_tags')
      .values(tagRows.slice(i, i + BATCH_ROWS))
      .execute();
  }
}

/** Replaces the folded tags of these products (at most BATCH_ROWS) with those of their rows. */
export async function replaceTags(
  trx: DB,
  catalogueId: string,
  rows: { id: string; tags: string }[],
) {
  if (rows.length === 0) return;
  // By the products alone: with the catalogue too, SQLite may read the catalogue's tags instead.
  await trx
    .deleteFrom('product_tags')
    .where(
      'product_id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  await insertTags(trx, catalogueId, rows);
}

import { centsToPrice } from '../../../shared/schemas/money.js';
import type { Product, ProductListItem } from '../../../shared/schemas/products.js';
import type { ImageUrls } from './product-images.js';
import type { ListRow, ProductRow } from './rows.js';

/** The API's view of a row: string id, price in dollars from exact cents, absolute image URLs. */
export function toListItem(row: Omit<ListRow, 'sort_key'>, urls: ImageUrls): ProductListItem {
  return {
    id: row.id,
    name: row.name,
    price: centsToPrice(row.price_cents),
    stock: row.stock,
    description: row.description,
    image: urls.image,
    thumbnail: urls.thumbnail,
    sku: row.sku,
    barcode: row.barcode,
    tags: JSON.parse(row.tags) as string[],
    reorderPoint: row.reorder_point,
  };
}

export function toProduct(row: ProductRow, urls: ImageUrls): Product {
  const hasSize = row.image_key !== null && row.image_width !== null && row.image_height !== null;
  // The spec's fields first, in its order; the reorder point and quantity, ours, come last.
  const { reorderPoint, ...listed } = toListItem(row, urls);
  return {
    ...listed,
    imageWidth: hasSize ? row.image_width : null,
    imageHeight: hasSize ? row.image_height : null,
    cost: row.cost_cents === null ? null : centsToPrice(row.cost_cents),
    active: row.active === 1,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    reorderPoint,
    reorderQuantity: row.reorder_quantity,
  };
}

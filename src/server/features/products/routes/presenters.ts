import type { ProductImages } from '../product-images.js';
import { toListItem, toProduct } from '../present.js';
import type { ListRow, ProductRow } from '../rows.js';

/** The API's shapes of product rows, with their image URLs. */
export const presenters = (images: ProductImages) => ({
  listItem: (row: ListRow) => toListItem(row, images.urls(row.image_key)),
  product: (row: ProductRow) => toProduct(row, images.urls(row.image_key)),
  /** A stored image's URL as `image` gives it; empty for a product without one (the export). */
  ownImageUrl: (key: string | null) => (key ? images.urls(key).image : ''),
});

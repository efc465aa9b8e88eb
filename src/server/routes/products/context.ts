import type { ProductImages } from '../../images/product-images.js';
import type { ListRow, ProductRepository, ProductRow } from '../../products/repository.js';
import type { ProductService } from '../../products/service.js';
import { toListItem, toProduct } from '../../products/present.js';
import { errorSchema } from '../../../shared/schemas/common.js';

/** What the product route files share, built once by the products plugin. */
export interface ProductsContext {
  repository: ProductRepository;
  service: ProductService;
  images: ProductImages;
}

export const presenters = (images: ProductImages) => ({
  listItem: (row: ListRow) => toListItem(row, images.urls(row.image_key)),
  product: (row: ProductRow) => toProduct(row, images.urls(row.image_key)),
});

/** The error answers of every product route, for the OpenAPI document. */
export const productErrors = {
  400: errorSchema,
  401: errorSchema,
  404: errorSchema,
  429: errorSchema,
} as const;

/** Uploads can also be refused for their size (413) or for not being an image (415). */
export const uploadErrors = { ...productErrors, 413: errorSchema, 415: errorSchema } as const;

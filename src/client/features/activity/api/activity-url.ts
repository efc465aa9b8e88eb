import type { CatalogueRef } from '@/lib/catalogue-ref.js';

/** A catalogue's activity log: `/products/activity…` or `/catalogues/{id}/activity…`. */
export const activityUrl = (catalogue: CatalogueRef, rest = '') =>
  catalogue
    ? `/catalogues/${encodeURIComponent(catalogue)}/activity${rest}`
    : `/products/activity${rest}`;

import { catalogueKey, type CatalogueRef } from '@/lib/catalogue-ref.js';

/** A catalogue's purchasing path: `/suppliers…`, or `/catalogues/{id}/suppliers…` for a shared one. */
export const purchasingUrl = (
  catalogue: CatalogueRef,
  part: 'suppliers' | 'purchase-orders',
  rest = '',
) => `${catalogue ? `/catalogues/${encodeURIComponent(catalogue)}` : ''}/${part}${rest}`;

/** An order's own path (its page, its PDF and CSV, its receipts). */
export const orderUrl = (catalogue: CatalogueRef, id: string, rest = '') =>
  purchasingUrl(catalogue, 'purchase-orders', `/${encodeURIComponent(id)}${rest}`);

/**
 * The cached purchasing data of a catalogue, under one key: whatever changes suppliers or orders
 * (a write here, a live event from elsewhere) reads all of it again.
 */
export const purchasingKeys = {
  all: (catalogue: CatalogueRef) => ['purchasing', catalogueKey(catalogue)] as const,
  suppliers: (catalogue: CatalogueRef) =>
    ['purchasing', catalogueKey(catalogue), 'suppliers'] as const,
  orders: (catalogue: CatalogueRef, status?: string) =>
    ['purchasing', catalogueKey(catalogue), 'orders', status ?? 'all'] as const,
  order: (catalogue: CatalogueRef, id: string) =>
    ['purchasing', catalogueKey(catalogue), 'order', id] as const,
};

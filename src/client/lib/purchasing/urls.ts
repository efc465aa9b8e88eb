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

/** A supplier or an order made, edited or deleted. */
export type RecordChange<Create, Update> =
  | { kind: 'create'; body: Create }
  | { kind: 'update'; id: string; body: Update }
  | { kind: 'delete'; id: string };

const METHODS = { create: 'POST', update: 'PATCH', delete: 'DELETE' } as const;

/** The request of a change of a supplier or an order: to the list's path, or to its own. */
export const recordRequest = (
  catalogue: CatalogueRef,
  part: 'suppliers' | 'purchase-orders',
  change: RecordChange<unknown, unknown>,
) => ({
  method: METHODS[change.kind],
  url: purchasingUrl(catalogue, part, 'id' in change ? `/${encodeURIComponent(change.id)}` : ''),
  ...('body' in change ? { data: change.body } : {}),
});

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

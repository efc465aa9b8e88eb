import type { StockReason } from '@shared/constants.js';
import type { ProductListItem } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { productsUrl, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { noteStockWrite } from '@/lib/product-cache.js';
import { sourceHeader } from '@/lib/source-header.js';
import { queryClient, queryKeys } from '@/lib/query-client.js';
import {
  IDEMPOTENCY_HEADER,
  gotNoAnswer,
  mustQueueStockChange,
  newChangeKey,
  pendingSnapshot,
  queueStockChange,
  stockWithPending,
} from '@/lib/stock-queue/index.js';

/** A scan's stock change: units added (`delta`, negative: taken) or the stock as counted. */
export type ScanChange = { reason?: StockReason; note: string } & (
  { delta: number } | { count: number }
);

/** What a scan's change did: the product as it now shows, and whether it still waits to be sent. */
export interface ChangeResult<P> {
  product: P;
  /** The product as the server last said, without the waiting changes (what an undo starts from). */
  saved: P;
  /** How far the stock shown moved (a count's difference included). */
  delta: number;
  queued: boolean;
}

/**
 * POST /products/{id}/stock → the product as the change left it; 409 when a delta would take the
 * stock below 0. The list and the product's screens read it again when next shown. Offline, behind
 * changes still waiting, or without an answer, the change joins the queue (lib/stock-queue) and the
 * product is shown with it applied.
 */
export async function changeStock<P extends ProductListItem>(
  catalogue: CatalogueRef,
  product: P,
  change: ScanChange,
): Promise<ChangeResult<P>> {
  const key = newChangeKey();
  const waitingStock = () =>
    stockWithPending(
      product.stock,
      pendingSnapshot().changes.filter(({ productId }) => productId === product.id),
    );
  const keep = async (): Promise<ChangeResult<P>> => {
    const before = waitingStock();
    await queueStockChange({
      key,
      catalogueId: catalogue,
      productId: product.id,
      productName: product.name,
      delta: 'delta' in change ? change.delta : undefined,
      count: 'count' in change ? change.count : undefined,
      reason: change.reason,
      note: change.note,
      madeAt: new Date().toISOString(),
    });
    const after = waitingStock();
    return {
      product: { ...product, stock: after },
      saved: product,
      delta: after - before,
      queued: true,
    };
  };
  if (mustQueueStockChange()) return keep();
  try {
    const { product: changed } = await apiRequest(
      () => import('@shared/schemas/products.js').then((m) => m.productMutationResponseSchema),
      {
        method: 'POST',
        url: productsUrl(catalogue, `/${encodeURIComponent(product.id)}/stock`),
        headers: { [IDEMPOTENCY_HEADER]: key, ...sourceHeader('scan') },
        data: change,
      },
    );
    noteStockWrite(changed.id, changed.updatedAt);
    await Promise.all([
      queryClient.invalidateQueries({
        queryKey: queryKeys.products(catalogue),
        refetchType: 'none',
      }),
      queryClient.invalidateQueries({
        queryKey: queryKeys.product(catalogue, product.id),
        refetchType: 'none',
      }),
    ]);
    return {
      product: { ...product, ...changed },
      saved: { ...product, ...changed },
      delta: changed.stock - product.stock,
      queued: false,
    };
  } catch (error) {
    if (gotNoAnswer(error)) return keep();
    throw error;
  }
}

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ProductListItem } from '@shared/schemas/products.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { expectedLines } from '@/lib/purchasing/expected.js';
import { purchaseOrderQueryOptions } from '@/lib/purchasing/orders-query.js';
import { purchasingKeys } from '@/lib/purchasing/urls.js';
import { pendingSnapshot } from '@/lib/stock-change/index.js';
import { receiveStock } from '@/lib/stock-change/receipts/receive.js';
import type { ScanLocation } from './api/lookup-code.js';
import type { ScanOutcome } from './use-scan-session.js';

/**
 * Receive mode against a purchase order: each scan of a product on the order receives `quantity`
 * units into the current location (else the default one), as one receipt sent now or queued
 * offline (sent once, by its key). The outcome says what of the line is still expected, and
 * more than ordered.
 */
export function useReceiveAgainstLine(poId: string | undefined, place: ScanLocation | undefined) {
  const catalogue = useCatalogueRef();
  const queryClient = useQueryClient();
  const tree = useLocations(catalogue).data;
  return useCallback(
    async (product: ProductListItem, quantity: number): Promise<ScanOutcome> => {
      if (!poId) return { kind: 'failed', message: 'Choose the purchase order first.' };
      // The order as this device has it (offline too); read now when never read.
      const order = await queryClient.ensureQueryData(purchaseOrderQueryOptions(catalogue, poId));
      if (!order.lines.some((line) => line.productId === product.id)) {
        return { kind: 'failed', message: `${product.name} is not on ${order.number}` };
      }
      const fallback = tree?.find((location) => location.isDefault);
      const location = place ?? (fallback && { id: fallback.id, path: fallback.path });
      if (!location) return { kind: 'failed', message: "First scan the location's label." };
      const result = await receiveStock(queryClient, {
        catalogue,
        po: order,
        location,
        source: 'scan',
        lines: [{ productId: product.id, productName: product.name, quantity }],
      });
      const now = result.queued ? order : result.answer.purchaseOrder;
      if (!result.queued) queryClient.setQueryData(purchasingKeys.order(catalogue, poId), now);
      // Queued receipts count as received: what is expected goes down offline too.
      const line = expectedLines(now, result.queued ? pendingSnapshot().changes : []).find(
        (one) => one.productId === product.id,
      );
      return {
        kind: 'received',
        product,
        poNumber: order.number,
        locationPath: location.path,
        quantity,
        expected: line?.expected ?? 0,
        over: line ? Math.max(0, line.received - line.ordered) : 0,
        ordered: line?.ordered ?? 0,
        queued: result.queued,
      };
    },
    [poId, place, tree, queryClient, catalogue],
  );
}

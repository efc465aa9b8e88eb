import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ProductListItem } from '@shared/schemas/products.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { countLine } from '@/lib/stock-change/count-line.js';
import type { ScanLocation } from './api/lookup-code.js';
import type { ScanOutcome } from './use-scan-session.js';

/** The open count that Count mode counts into, rather than setting stock. */
export interface CountInto {
  id: string;
  /** Where a line goes before a location is scanned: the count's location, else the default. */
  location: ScanLocation | undefined;
}

/**
 * A line of the open count at the current location (else the count's own): `counted` units
 * added (a scan) or the line set to it. Sent now or queued offline, as stock changes are.
 */
export function useCountIntoLine(
  countInto: CountInto | undefined,
  place: ScanLocation | undefined,
) {
  const catalogue = useCatalogueRef();
  const queryClient = useQueryClient();
  return useCallback(
    async (product: ProductListItem, counted: number, add: boolean): Promise<ScanOutcome> => {
      const location = place ?? countInto?.location;
      if (!countInto || !location) {
        return { kind: 'failed', message: "First scan the location's label." };
      }
      const result = await countLine(queryClient, {
        catalogue,
        countId: countInto.id,
        product,
        location,
        counted,
        add,
        source: 'scan',
      });
      return {
        kind: 'countLine',
        product,
        location,
        counted: result.queued ? undefined : result.line.counted,
        added: add ? counted : undefined,
        queued: result.queued,
      };
    },
    [queryClient, catalogue, countInto, place],
  );
}

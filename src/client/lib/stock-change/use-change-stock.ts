import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import type { StockChangeSource } from './pending.js';
import { changeStock, type ScreenStockChange } from './send.js';

/** changeStock for a screen: in the screen's catalogue and query client, from its source. */
export function useChangeStock(source: StockChangeSource) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  return useCallback(
    (change: ScreenStockChange) => changeStock(queryClient, { ...change, catalogue, source }),
    [queryClient, catalogue, source],
  );
}

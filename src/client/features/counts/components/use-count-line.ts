import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { countLine, type CountLineRequest } from '@/lib/stock-change/count-line.js';
import { useAllPendingChanges, type QueuedChange } from '@/lib/stock-change/index.js';

/** Counts a line of the screen's count: sent now, or queued while offline (lib/stock-change). */
export function useCountLine(countId: string) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  return useCallback(
    (line: Omit<CountLineRequest, 'catalogue' | 'countId' | 'source'>) =>
      countLine(queryClient, { ...line, catalogue, countId, source: 'form' }),
    [queryClient, catalogue, countId],
  );
}

type QueuedLine = Extract<QueuedChange, { kind: 'countLine' }>;

/** This user's lines of the count still waiting to be sent, in the order counted. */
export function useQueuedLines(countId: string): QueuedLine[] {
  return useAllPendingChanges().filter(
    (change): change is QueuedLine => change.kind === 'countLine' && change.countId === countId,
  );
}

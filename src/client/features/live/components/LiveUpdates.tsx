import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { afterPageSettles } from '@/lib/after-settled.js';

/**
 * Keeps the signed-in user's screens up to date with changes made elsewhere (features/live). The
 * stream's code loads once the first screen has settled, outside the first visit's JavaScript;
 * it stops when the user changes or signs out (this component unmounts with the signed-in layout).
 */
export function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    const cancelStart = afterPageSettles(() => {
      import('../live-stream.js')
        .then(({ startLiveUpdates }) => {
          if (!cancelled) stop = startLiveUpdates(queryClient);
        })
        .catch(() => undefined);
    });
    return () => {
      cancelled = true;
      cancelStart();
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}

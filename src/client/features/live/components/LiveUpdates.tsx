import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Keeps the signed-in user's screens up to date with changes made elsewhere (features/live). The
 * stream's code loads after the first screen has rendered, outside the first visit's JavaScript;
 * it stops when the user changes or signs out (this component unmounts with the signed-in layout).
 */
export function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    import('../live-stream.js')
      .then(({ startLiveUpdates }) => {
        if (!cancelled) stop = startLiveUpdates(queryClient);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}

import { useEffect } from 'react';
import { afterPageSettles } from '@/lib/after-settled.js';
import { loadStockQueue, pendingSnapshot, setPendingSnapshot } from '@/lib/stock-change/index.js';

/** How often a queue that met an unreachable server tries again without an 'online' event. */
const RETRY_MS = 15_000;

const sendWaiting = () =>
  void loadStockQueue()
    .then((queue) => queue.sendQueuedChanges())
    .catch(() => undefined);

/**
 * Sends the signed-in user's waiting stock changes: on app start, once the first screen has
 * settled (what an earlier visit left offline), when the browser says it is back online, and every little while as long as some wait
 * (a server that was down comes back without any 'online' event); and follows what the user's
 * other tabs send. Renders nothing; at logout it unmounts and the screens stop showing the queue.
 */
export function StockQueueRunner({ userId }: { userId: string }) {
  useEffect(() => {
    let stopped = false;
    let stopFollowing: (() => void) | undefined;
    // Loaded while the connection is surely there, so that a change made offline later finds it.
    const cancelStart = afterPageSettles(
      () =>
        void loadStockQueue()
          .then(async (queue) => {
            if (stopped) return;
            // What the user's other tabs send shows here as sent, at the stock it left.
            stopFollowing = queue.followOtherTabs(userId);
            await queue.loadQueue(userId);
            if (!stopped) await queue.sendQueuedChanges();
          })
          .catch(() => undefined),
    );
    window.addEventListener('online', sendWaiting);
    const retry = setInterval(() => {
      if (pendingSnapshot().changes.length > 0 && navigator.onLine) sendWaiting();
    }, RETRY_MS);
    return () => {
      stopped = true;
      cancelStart();
      stopFollowing?.();
      window.removeEventListener('online', sendWaiting);
      clearInterval(retry);
      setPendingSnapshot(undefined, []);
    };
  }, [userId]);
  return null;
}

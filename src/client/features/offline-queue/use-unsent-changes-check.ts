import { loadStockQueue, pendingSnapshot } from '@/lib/stock-change/index.js';

const unsentQuestion = (count: number) =>
  count === 1
    ? '1 stock change has not been sent yet. Log out anyway?'
    : `${count} stock changes have not been sent yet. Log out anyway?`;

/**
 * Before a logout: changes still waiting are sent if the browser is online; any left (offline,
 * server away) are named, and the user chooses. Logging out anyway drops them: the next person on
 * this browser must not find them, nor have them sent under their account. Resolves to whether
 * the logout may go on.
 */
export async function mayLogOutWithUnsentChanges(): Promise<boolean> {
  const { userId, changes } = pendingSnapshot();
  if (!userId || changes.length === 0) return true;
  try {
    const queue = await loadStockQueue();
    if (navigator.onLine) await queue.sendQueuedChanges();
    const left = pendingSnapshot().changes.length;
    if (left === 0) return true;
    if (!window.confirm(unsentQuestion(left))) return false;
    await queue.forgetQueue(userId);
  } catch {
    // The queue's code or storage is not there: ask about what the screens show.
    return window.confirm(unsentQuestion(changes.length));
  }
  return true;
}

import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '@shared/constants.js';
import { loadToastify, subscribeToToasts, toastsWanted } from '@/lib/notify.js';

// Mounted only once lib/notify.ts has loaded react-toastify: this never waits on the network.
const ToastContainer = lazy(async () => ({ default: (await loadToastify()).ToastContainer }));

/**
 * The toast area of both layouts: top-centre, dark, 5000 ms, not closed by a click; at most two
 * at once (more wait their turn), so that a burst of them never covers the page. On a phone they
 * come in under the header bar (index.css). Mounted once the first toast is asked for (see
 * lib/notify.ts).
 */
export function Toaster() {
  const wanted = useSyncExternalStore(subscribeToToasts, toastsWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer
        position="top-center"
        theme="dark"
        autoClose={TOAST_AUTO_CLOSE_MS}
        closeOnClick={false}
        limit={2}
      />
    </Suspense>
  );
}

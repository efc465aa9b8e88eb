import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '@shared/constants.js';
import { subscribeToToasts, toastsWanted } from '@/lib/notify.js';

// react-toastify's unstyled build and its stylesheet as a file: the default build injects a
// <style> element, which the Content-Security-Policy (style-src 'self') refuses.
const ToastContainer = lazy(async () => {
  const [{ ToastContainer }] = await Promise.all([
    import('react-toastify/unstyled'),
    import('react-toastify/ReactToastify.css'),
  ]);
  return { default: ToastContainer };
});

/**
 * The toast area of both layouts: top-centre, dark, 5000 ms, not closed by a click (spec 2).
 * Mounted once the first toast is asked for (see lib/notify.ts).
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
      />
    </Suspense>
  );
}

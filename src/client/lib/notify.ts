import type { ToastContent } from 'react-toastify/unstyled';
import { getErrorMessage } from './api-error.js';
import { cachedImport, isChunkLoadError, preload } from './lazy-import.js';
import { reloadToast } from './reload-toast.js';

/**
 * Toasts. react-toastify loads with the first toast (or ahead of it, see preloadToasts) rather than
 * with every page: until then the layouts' <Toaster> renders nothing, and a toast raised before its
 * container mounts is queued by react-toastify and shown once it does.
 */
let wanted = false;
const listeners = new Set<() => void>();

export const subscribeToToasts = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const toastsWanted = () => wanted;

/**
 * react-toastify's unstyled build and its stylesheet, a file: the default build injects a <style>
 * element, which the CSP refuses. components/Toaster.tsx renders the container from it.
 */
export const loadToastify = cachedImport(async () => {
  const [toastify] = await Promise.all([
    import('react-toastify/unstyled'),
    import('react-toastify/ReactToastify.css'),
  ]);
  return toastify;
});

/**
 * Called when a request starts or a form gets focus: a failure toast must not depend on a chunk
 * that the lost connection can no longer bring.
 */
export const preloadToasts = () => preload(loadToastify);

async function show(
  kind: 'success' | 'error' | 'info',
  content: ToastContent,
  options?: { autoClose: false; toastId: string },
) {
  let toastify: Awaited<ReturnType<typeof loadToastify>>;
  try {
    toastify = await loadToastify();
  } catch (error) {
    // Offline before any toast was needed: the offline banner says what is wrong.
    console.warn('The toast could not be shown', error);
    return;
  }
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  toastify.toast[kind](content, options);
}

export const notifySuccess = (message: string) => void show('success', message);

/** Closes the toasts on screen (one that no longer holds, like 'a code is on its way'). */
export const dismissToasts = () => {
  if (wanted)
    void loadToastify().then(
      ({ toast }) => toast.dismiss(),
      () => undefined,
    );
};

/**
 * Every failed mutation shows its error text as an error toast. Code of the app
 * that could not be loaded while the browser is online (a release replaced it, a proxy dropped
 * it) comes with a Reload button: reloading is what fixes it.
 */
export const notifyError = (error: unknown) => {
  const message = getErrorMessage(error);
  void show('error', isChunkLoadError(error) && navigator.onLine ? reloadToast(message) : message);
};

/**
 * A new version of the app is ready (lib/service-worker.ts): it stays on screen until the user
 * reloads, and nothing changes under a form being filled in until then. One such toast at a time:
 * its Reload takes whichever version is waiting by then.
 */
export const notifyNewVersion = (activate: () => void) =>
  void show('info', reloadToast('A new version is available', activate), {
    autoClose: false,
    toastId: 'new-version',
  });

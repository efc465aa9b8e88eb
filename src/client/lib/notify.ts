import { getErrorMessage } from './api-error.js';

/**
 * Toasts. react-toastify loads with the first toast rather than with every page: until then the
 * layouts' <Toaster> renders nothing, and a toast raised before its container mounts is queued by
 * react-toastify and shown once it does.
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

async function show(kind: 'success' | 'error', message: string) {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  // The unstyled build: the default one injects a <style> element, which the CSP refuses (the
  // stylesheet comes with the container, see components/Toaster.tsx).
  const { toast } = await import('react-toastify/unstyled');
  toast[kind](message);
}

export const notifySuccess = (message: string) => void show('success', message);

/** Every failed mutation shows its error text as an error toast (spec section 8). */
export const notifyError = (error: unknown) => void show('error', getErrorMessage(error));

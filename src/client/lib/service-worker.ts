/** How often a tab that stays open asks whether a new version was released. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker (vite.config.ts) once the page has loaded, never in a first
 * visit's critical path; a handful of lines rather than workbox-window, which would cost the
 * list's first visit kilobytes it does not have. A new version waits until the user takes it:
 * `onUpdate` gets the function that activates it and reloads the page, to call from a prompt.
 * The first install offers nothing: there is no older version in control to replace.
 */
export function registerServiceWorker(onUpdate: (activate: () => void) => void) {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { serviceWorker } = navigator;

  /**
   * The version waiting when the user answers, not the one first offered: a later release
   * replaces that one, which then never runs. With none waiting any more (it took over while
   * every other tab was closed), a reload is all there is to do.
   */
  const offer = (registration: ServiceWorkerRegistration) =>
    onUpdate(() => {
      const waiting = registration.waiting;
      if (!waiting) return window.location.reload();
      serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
        once: true,
      });
      // Workbox's worker activates itself on this message (generateSW without skipWaiting).
      waiting.postMessage({ type: 'SKIP_WAITING' });
    });

  const register = async () => {
    const registration = await serviceWorker.register('/sw.js', { scope: '/' });
    // Found by an earlier visit and never taken.
    if (registration.waiting && serviceWorker.controller) offer(registration);
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed' && serviceWorker.controller) offer(registration);
      });
    });
    setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
  };

  const start = () =>
    void register().catch((error: unknown) => {
      console.warn('The service worker could not be registered', error);
    });
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

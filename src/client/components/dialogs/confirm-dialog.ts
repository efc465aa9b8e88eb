import { buttonClasses } from '../ui/button-styles.js';

/** The app's buttons instead of SweetAlert2's (whose focus ring had 2.4:1 contrast). */
export const appButtons = {
  buttonsStyling: false,
  customClass: {
    confirmButton: buttonClasses('primary'),
    cancelButton: buttonClasses('secondary'),
  },
} as const;

/** A question before something that cannot be undone: a red confirm button, Cancel first. */
export const confirmButtons = {
  ...appButtons,
  customClass: { ...appButtons.customClass, confirmButton: buttonClasses('destructive') },
  reverseButtons: true,
} as const;

/**
 * SweetAlert2, loaded on the first click that needs it, so that no screen pays for it up front:
 * nor for its stylesheet, which would hold the first paint of every screen that can delete. It is
 * a file (the build Vite picks for 'sweetalert2', vite.config.ts, injects no <style> element, which
 * the Content-Security-Policy's style-src 'self' would refuse), then the app's look on top of it.
 */
export const loadDialogs = async () => {
  const [dialogs] = await Promise.all([
    import('sweetalert2'),
    import('sweetalert2/dist/sweetalert2.css'),
    import('./confirm-dialog.css'),
  ]);
  return dialogs.default;
};

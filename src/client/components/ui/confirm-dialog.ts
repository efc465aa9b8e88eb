// SweetAlert2's stylesheet as a file, loaded with the screens that can delete: the build Vite picks
// for 'sweetalert2' (vite.config.ts) does not inject a <style> element, which the
// Content-Security-Policy (style-src 'self') would refuse. Then the app's look on top of it.
import 'sweetalert2/dist/sweetalert2.css';
import './confirm-dialog.css';
import { buttonClasses } from './button-styles.js';

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

/** SweetAlert2, loaded on the first click that needs it, so that no screen pays for it up front. */
export const loadDialogs = async () => (await import('sweetalert2')).default;

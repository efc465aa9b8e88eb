import { confirmButtons, loadDialogs } from './confirm-dialog.js';

/**
 * A question before something that cannot be undone, in the app's dialog (SweetAlert2, loaded on
 * first use): Cancel first and focused. Resolves to whether the user confirmed.
 */
export async function confirmAction(title: string, text: string, confirmButtonText: string) {
  const Swal = await loadDialogs();
  const answer = await Swal.fire({
    title,
    text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText,
    focusCancel: true,
    ...confirmButtons,
  });
  return answer.isConfirmed;
}

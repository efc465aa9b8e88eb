import type { ProductListItem } from '@shared/schemas/products.js';
import { OfflineRefusal } from '@/lib/needs-connection.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useDeleteProduct } from '../api/delete-product.js';
import { appButtons, confirmButtons, loadDialogs } from '@/components/dialogs/confirm-dialog.js';

interface DeleteProductButtonProps {
  product: Pick<ProductListItem, 'id' | 'name'>;
  className?: string;
  /** Called once the user has closed 'Deleted!' (the button itself is gone by then). */
  onDeleted?: (() => void) | undefined;
}

/**
 * The delete flow: a warning to confirm; after the server confirms, 'Deleted!' with the server's
 * message ('Your product has been deleted.') as its text, and that message as a success toast too,
 * as the spec lists both. Any dismissal (Cancel, Esc, a click outside, the close button) is a
 * cancel: 'Cancelled'. SweetAlert2 is loaded on the first click, so no screen pays for it up front.
 */
export function DeleteProductButton({ product, className, onDeleted }: DeleteProductButtonProps) {
  const remove = useDeleteProduct();

  const onClick = async () => {
    // Offline, said before the question (whose code may not even load): deletes are not queued.
    if (!navigator.onLine) return notifyError(new OfflineRefusal('Deleting products'));
    const Swal = await loadDialogs();
    const answer = await Swal.fire({
      title: 'Are you sure?',
      text: 'You will not be able to recover this product!',
      icon: 'warning',
      showCancelButton: true,
      confirmButtonText: 'Yes, delete it!',
      focusCancel: true,
      ...confirmButtons,
    });
    if (answer.isConfirmed) {
      let message: string;
      try {
        ({ message } = await remove.mutateAsync(product.id));
      } catch (error) {
        notifyError(error);
        return;
      }
      notifySuccess(message);
      // The list moves the focus on once this closes: the Delete button it would return to is gone.
      await Swal.fire({
        title: 'Deleted!',
        text: message,
        icon: 'success',
        returnFocus: false,
        ...appButtons,
      });
      onDeleted?.();
    } else if (answer.isDismissed) {
      void Swal.fire({
        title: 'Cancelled',
        text: 'Your product is safe',
        icon: 'error',
        ...appButtons,
      });
    }
  };

  return (
    <button
      type="button"
      className={className}
      aria-label={`${remove.isPending ? 'Deleting' : 'Delete'} ${product.name}`}
      disabled={remove.isPending}
      onClick={() => void onClick()}
    >
      {remove.isPending ? 'Deleting...' : 'Delete'}
    </button>
  );
}

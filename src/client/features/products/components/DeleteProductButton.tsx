import type { ProductListItem } from '@shared/schemas/products.js';
// SweetAlert2's stylesheet as a file, loaded with the screens that can delete: the build Vite picks
// for 'sweetalert2' (vite.config.ts) does not inject a <style> element, which the
// Content-Security-Policy (style-src 'self') would refuse. Then the app's look on top of it.
import 'sweetalert2/dist/sweetalert2.css';
import './delete-dialog.css';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { notifyError } from '@/lib/notify.js';
import { useDeleteProduct } from '../api/delete-product.js';

/** The app's buttons instead of SweetAlert2's (whose focus ring had 2.4:1 contrast). */
const appButtons = {
  buttonsStyling: false,
  customClass: {
    confirmButton: buttonClasses('primary'),
    cancelButton: buttonClasses('secondary'),
  },
} as const;
const confirmButtons = {
  ...appButtons,
  customClass: { ...appButtons.customClass, confirmButton: buttonClasses('destructive') },
  reverseButtons: true,
} as const;

interface DeleteProductButtonProps {
  product: Pick<ProductListItem, 'id' | 'name'>;
  className?: string;
  /** Called once the user has closed 'Deleted!' (the button itself is gone by then). */
  onDeleted?: (() => void) | undefined;
}

/**
 * The delete flow (spec section 4): a warning to confirm; after the server confirms, 'Deleted!'
 * with the server's message ('Your product has been deleted.') as its text: that dialog is the
 * success notice, so no toast repeats it. Any dismissal (Cancel, Esc, a click outside, the close
 * button) is a cancel: 'Cancelled'. SweetAlert2 is loaded on the first click, so no screen pays
 * for it up front.
 */
export function DeleteProductButton({ product, className, onDeleted }: DeleteProductButtonProps) {
  const remove = useDeleteProduct();

  const onClick = async () => {
    const { default: Swal } = await import('sweetalert2');
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

import type { ProductListItem } from '@shared/schemas/products.js';
// SweetAlert2's stylesheet as a file, loaded with the screens that can delete: the build Vite picks
// for 'sweetalert2' (vite.config.ts) does not inject a <style> element, which the
// Content-Security-Policy (style-src 'self') would refuse.
import 'sweetalert2/dist/sweetalert2.css';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useDeleteProduct } from '../api/delete-product.js';

/** Button colours with enough contrast for white text (WCAG AA). */
const confirmColors = { confirmButtonColor: '#b91c1c', cancelButtonColor: '#4b5563' };
const okColor = { confirmButtonColor: '#4338ca' };

interface DeleteProductButtonProps {
  product: Pick<ProductListItem, 'id' | 'name'>;
  className?: string;
}

/**
 * The delete flow (spec section 4): a warning to confirm; after the server confirms, 'Deleted!' and
 * the server's message as a success notice, the list refreshed; on cancel, 'Cancelled'.
 * SweetAlert2 is loaded on the first click, so no screen pays for it up front.
 */
export function DeleteProductButton({ product, className }: DeleteProductButtonProps) {
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
      ...confirmColors,
    });
    if (answer.isConfirmed) {
      try {
        const { message } = await remove.mutateAsync(product.id);
        notifySuccess(message);
        void Swal.fire({
          title: 'Deleted!',
          text: 'Your product has been deleted.',
          icon: 'success',
          ...okColor,
        });
      } catch (error) {
        notifyError(error);
      }
    } else if (answer.dismiss === Swal.DismissReason.cancel) {
      void Swal.fire({
        title: 'Cancelled',
        text: 'Your product is safe',
        icon: 'error',
        ...okColor,
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

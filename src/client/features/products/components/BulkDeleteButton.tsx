import { Button } from '@/components/ui/Button.js';
import { formatCount } from '@/lib/format.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useBulkDeleteProducts } from '../api/bulk-delete.js';
import { confirmButtons, loadDialogs } from './delete-dialog.js';

interface BulkDeleteButtonProps {
  ids: string[];
  disabled?: boolean;
  /** After the products are gone and the list is refreshed: the page moves the focus on. */
  onDeleted: () => void;
}

const products = (n: number) => (n === 1 ? 'this product' : `these ${formatCount(n)} products`);

/**
 * Deletes the chosen products in one request, after one confirmation that names how many (the
 * single delete's dialog, in its look). The server's message is the success toast.
 */
export function BulkDeleteButton({ ids, disabled = false, onDeleted }: BulkDeleteButtonProps) {
  const remove = useBulkDeleteProducts({
    mutationConfig: {
      onSuccess: ({ message }) => {
        notifySuccess(message);
        onDeleted();
      },
      onError: notifyError,
    },
  });

  const onClick = async () => {
    const Swal = await loadDialogs();
    const count = ids.length;
    const answer = await Swal.fire({
      title: 'Are you sure?',
      text: `You will not be able to recover ${products(count)}!`,
      icon: 'warning',
      showCancelButton: true,
      confirmButtonText:
        count === 1 ? 'Yes, delete it!' : `Yes, delete ${formatCount(count)} products!`,
      focusCancel: true,
      ...confirmButtons,
    });
    if (answer.isConfirmed) remove.mutate(ids);
  };

  return (
    <Button
      variant="danger"
      disabled={disabled}
      busy={remove.isPending}
      busyLabel="Deleting..."
      onClick={() => void onClick().catch(notifyError)}
    >
      Delete selected
    </Button>
  );
}

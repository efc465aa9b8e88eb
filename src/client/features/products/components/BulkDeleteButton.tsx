import { Button } from '@/components/ui/Button.js';
import { formatCount } from '@/lib/format.js';
import { OfflineRefusal } from '@/lib/needs-connection.js';
import { notifyError, notifySuccess } from '@/lib/notify.js';
import { useBulkDeleteProducts } from '../api/bulk-delete.js';
import { confirmButtons, loadDialogs } from '@/components/dialogs/confirm-dialog.js';

/** A product as the confirmation names it. */
export interface NamedProduct {
  id: string;
  name: string;
}

/** The confirmation names this many products; the rest are counted. */
const NAMED = 5;

interface BulkDeleteButtonProps {
  products: NamedProduct[];
  disabled?: boolean;
  /** After the products are gone and the list is refreshed: the page moves the focus on. */
  onDeleted: () => void;
}

const these = (n: number) => (n === 1 ? 'this product' : `these ${formatCount(n)} products`);

/** The warning, then the first products by name and how many more: the user sees what goes. */
function confirmationBody(products: NamedProduct[]): HTMLElement {
  const body = document.createElement('div');
  const warning = document.createElement('p');
  warning.textContent = `You will not be able to recover ${these(products.length)}!`;
  const list = document.createElement('ul');
  list.className = 'mt-3 space-y-1 font-medium text-gray-900';
  const rest = products.length - NAMED;
  const lines = products.slice(0, NAMED).map(({ name }) => name);
  if (rest > 0) lines.push(`and ${formatCount(rest)} more`);
  for (const line of lines) {
    const item = document.createElement('li');
    item.className = 'wrap-anywhere';
    item.textContent = line;
    list.append(item);
  }
  body.append(warning, list);
  return body;
}

/**
 * Deletes the chosen products in one request, after one confirmation that says how many and names
 * the first of them (the single delete's dialog, in its look). The server's message is the success toast.
 */
export function BulkDeleteButton({ products, disabled = false, onDeleted }: BulkDeleteButtonProps) {
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
    // Offline, said before the question (whose code may not even load): deletes are not queued.
    if (!navigator.onLine) return notifyError(new OfflineRefusal('Deleting products'));
    const Swal = await loadDialogs();
    const count = products.length;
    const answer = await Swal.fire({
      title: 'Are you sure?',
      html: confirmationBody(products),
      icon: 'warning',
      showCancelButton: true,
      confirmButtonText:
        count === 1 ? 'Yes, delete it!' : `Yes, delete ${formatCount(count)} products!`,
      focusCancel: true,
      ...confirmButtons,
    });
    if (answer.isConfirmed) remove.mutate(products.map(({ id }) => id));
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

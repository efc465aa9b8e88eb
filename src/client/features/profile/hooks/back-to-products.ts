import { useNotifyAndNavigate } from '@/lib/notify-and-navigate.js';
import { paths } from '@/lib/paths.js';

/** A saved setting: the server's message as a toast, and back to the product list. */
export function useBackToProducts() {
  const notifyAndNavigate = useNotifyAndNavigate();
  return ({ message }: { message: string }) =>
    notifyAndNavigate(message, paths.products.list.getHref());
}

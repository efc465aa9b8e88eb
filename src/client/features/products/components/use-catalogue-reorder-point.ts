import { REORDER_POINT_DEFAULT } from '@shared/reorder.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogues } from '@/lib/catalogues/get-catalogues.js';

/**
 * The reorder point of the screen's catalogue, which its products without one of their own use:
 * the default until the catalogues are read.
 */
export function useCatalogueReorderPoint(): number {
  const ref = useCatalogueRef();
  const catalogues = useCatalogues();
  const catalogue = catalogues.data?.find((entry) => (ref ? entry.id === ref : entry.personal));
  return catalogue?.reorderPoint ?? REORDER_POINT_DEFAULT;
}

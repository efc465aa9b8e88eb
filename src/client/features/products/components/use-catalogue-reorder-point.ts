import { useQuery } from '@tanstack/react-query';
import { REORDER_POINT_DEFAULT } from '@shared/reorder.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { cataloguesQueryOptions } from '@/lib/catalogues/get-catalogues.js';

/**
 * The reorder point of the screen's catalogue, which its products without one of their own use:
 * the default until the catalogues are read. Like the role (lib/catalogues/current-catalogue.ts),
 * a shared catalogue's screens read the catalogues; the personal one's take what the header read.
 */
export function useCatalogueReorderPoint(): number {
  const ref = useCatalogueRef();
  const list = useQuery({ ...cataloguesQueryOptions, enabled: ref !== undefined }).data;
  const catalogue = list?.find((entry) => (ref ? entry.id === ref : entry.personal));
  return catalogue?.reorderPoint ?? REORDER_POINT_DEFAULT;
}

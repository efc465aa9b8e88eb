import { visibleProduct } from '../../infra/db/visible-products.js';
import type { CatalogueWrite } from '../writes/index.js';

/**
 * The catalogue's visible products among `ids`, read in id order and locked on PostgreSQL, so
 * two writes that share products wait for each other instead of deadlocking (SQLite has no FOR
 * UPDATE: its transactions already run one at a time). The caller says which columns it reads.
 */
export const lockProducts = (w: CatalogueWrite, ids: string[]) =>
  w.trx
    .selectFrom('products')
    .where('catalogue_id', '=', w.catalogueId)
    .where('id', 'in', ids)
    .where(visibleProduct())
    .orderBy('id')
    .$if(w.dialect === 'postgres', (query) => query.forUpdate());

import { purchaseOrderFileRoutes } from './order-file-routes.js';
import { purchaseOrderRoutes } from './order-routes.js';
import { supplierRoutes } from './supplier-routes.js';
import { named } from '../../http/plugin-name.js';

/**
 * A catalogue's suppliers and purchase orders, under `/api` for the caller's personal catalogue
 * and under `/api/catalogues/{catalogueId}` for any.
 */
export const purchasingRoutes = named('purchasing-routes', async (app) => {
  await app.register(supplierRoutes, { prefix: '/suppliers' });
  await app.register(purchaseOrderRoutes, { prefix: '/purchase-orders' });
  await app.register(purchaseOrderFileRoutes, { prefix: '/purchase-orders' });
});

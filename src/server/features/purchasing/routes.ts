import type { FastifyInstance } from 'fastify';
import { purchaseOrderFileRoutes } from './order-file-routes.js';
import { purchaseOrderRoutes } from './order-routes.js';
import { supplierRoutes } from './supplier-routes.js';

/**
 * A catalogue's suppliers and purchase orders, under `/api` for the caller's personal catalogue
 * and under `/api/catalogues/{catalogueId}` for any.
 */
export async function purchasingRoutes(app: FastifyInstance) {
  await app.register(supplierRoutes, { prefix: '/suppliers' });
  await app.register(purchaseOrderRoutes, { prefix: '/purchase-orders' });
  await app.register(purchaseOrderFileRoutes, { prefix: '/purchase-orders' });
}

import multipart from '@fastify/multipart';
import { multipartLimits } from './form.js';
import { itemRoutes } from './item.js';
import { listRoute } from './list.js';
import { lookupRoute } from './lookup.js';
import { stockRoutes } from './stock.js';
import { writeRoutes } from './write.js';
import { named } from '../../../http/plugin-name.js';

/**
 * The products API: each signed-in user's own catalogue, one product at a time (the whole
 * catalogue at once is catalogue-ops'). Every query is scoped by owner.
 */
export const productRoutes = named('product-routes', async (fastify) => {
  // Scoped to these routes: only they and the import accept multipart bodies.
  await fastify.register(multipart, { limits: multipartLimits, throwFileSizeLimit: true });
  const context = fastify.products;
  await fastify.register(listRoute, context);
  await fastify.register(lookupRoute, context);
  await fastify.register(itemRoutes, context);
  await fastify.register(writeRoutes, context);
  await fastify.register(stockRoutes, context);
});

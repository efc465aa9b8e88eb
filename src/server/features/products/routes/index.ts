import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { PLACEHOLDER_NAME } from '../../../infra/images/placeholder.js';
import { ProductImages } from '../product-images.js';
import { ImportSlots } from '../../catalogue-ops/import-slots.js';
import { ResponseCache } from '../response-cache.js';
import { ProductRepository } from '../repository.js';
import { ProductService } from '../service.js';
import type { ProductsContext } from './context.js';
import { catalogueRoutes } from '../../catalogue-ops/routes/catalogue.js';
import { presenters } from './presenters.js';
import { multipartLimits } from './form.js';
import { importRoute } from '../../catalogue-ops/routes/import.js';
import { itemRoutes } from './item.js';
import { listRoute } from './list.js';
import { bulkRateLimiter } from './route-options.js';
import { labelsRoute } from '../../catalogue-ops/routes/labels.js';
import { lookupRoute } from './lookup.js';
import { stockRoutes } from './stock.js';
import { writeRoutes } from './write.js';

/**
 * CSV imports a process runs at once (dry runs included): each holds up to 10 MB of checked rows,
 * and on SQLite their writes take turns anyway.
 */
const IMPORTS_AT_ONCE = 3;

/** The products API: each signed-in user's own catalogue. Every query is scoped by owner. */
export async function productRoutes(
  fastify: FastifyInstance,
  options: { responseCacheBytes?: number | undefined },
) {
  // Scoped to these routes: nowhere else accepts multipart bodies.
  await fastify.register(multipart, { limits: multipartLimits, throwFileSizeLimit: true });

  const { db, database, clock, config, images } = fastify;
  const placeholderUrl = `${config.publicUrl}/api/images/${PLACEHOLDER_NAME}`;
  const productImages = new ProductImages(images, placeholderUrl, fastify.log);
  const repository = new ProductRepository(db, database.dialect);
  const context: ProductsContext = {
    repository,
    service: new ProductService(repository, productImages, clock),
    present: presenters(productImages),
    responses: new ResponseCache(options.responseCacheBytes),
    bulkLimiter: bulkRateLimiter(fastify),
    imports: new ImportSlots(IMPORTS_AT_ONCE),
  };

  await fastify.register(listRoute, context);
  await fastify.register(lookupRoute, context);
  await fastify.register(labelsRoute, context);
  await fastify.register(itemRoutes, context);
  await fastify.register(writeRoutes, context);
  await fastify.register(stockRoutes, context);
  await fastify.register(catalogueRoutes, context);
  await fastify.register(importRoute, context);
}

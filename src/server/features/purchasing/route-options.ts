import type { FastifyInstance } from 'fastify';
import type { CatalogueAction } from '../../../shared/catalogue-roles.js';
import { rateLimit } from '../../http/route-options.js';

/** A purchasing route's config: the general rate limit, and the action its caller needs. */
export function actionOptions(app: FastifyInstance) {
  const { rateLimits } = app;
  return (catalogueAction: CatalogueAction) => ({
    config: { ...rateLimit(rateLimits, rateLimits.general), catalogueAction },
  });
}

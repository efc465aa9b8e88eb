import type { FastifyInstance } from 'fastify';
import type { CatalogueAction } from '../../../shared/catalogue-roles.js';
import { rateLimit } from '../../http/route-options.js';

/**
 * A catalogue route's config: the per-IP limit for ordinary requests, and what the route does in
 * the terms of the role rule (the catalogue scope refuses a role that may not).
 */
export function actionConfig(app: FastifyInstance, catalogueAction: CatalogueAction) {
  const { rateLimits } = app;
  return { config: { ...rateLimit(rateLimits, rateLimits.general), catalogueAction } };
}

import fp from 'fastify-plugin';
import type { CountPlaces } from './reads.js';
import { pathByProbes } from './scope.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the counts read of the catalogues' locations (features/counts). */
    countPlaces: CountPlaces;
  }
}

/**
 * Stock counts: the locations they are read with, decorated once for the routes of every
 * catalogue scope.
 */
export const countsPlugin = fp(
  async (app) => {
    const { locations } = app;
    app.decorate('countPlaces', {
      pathOf: (catalogueId, locationId) => pathByProbes(app.db, catalogueId, locationId),
      pathsOf: (catalogueId, locationIds) => locations.pathsFound(catalogueId, locationIds),
      subtree: (catalogueId, locationId) => locations.subtree(catalogueId, locationId),
    } satisfies CountPlaces);
  },
  { name: 'counts', dependencies: ['settings', 'database', 'locations', 'activity'] },
);

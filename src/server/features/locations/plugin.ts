import fp from 'fastify-plugin';
import { Locations } from './locations.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Catalogues' location trees (features/locations). */
    locations: Locations;
  }
}

/** The catalogues' location trees, decorated once for the routes of every catalogue scope. */
export const locationsPlugin = fp(
  async (app) => {
    const { db, database } = app;
    app.decorate('locations', new Locations({ db, dialect: database.dialect }));
  },
  { name: 'locations', dependencies: ['settings', 'database'] },
);

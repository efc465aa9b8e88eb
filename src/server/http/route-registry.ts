import type { FastifyInstance, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as it was registered, with its final config and schema (tests walk them). */
    registeredRoutes: readonly RouteOptions[];
  }
}

/** Keeps each route's options as it is added, in every scope. Register it before any route. */
export function registerRouteRegistry(app: FastifyInstance) {
  const routes: RouteOptions[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
}

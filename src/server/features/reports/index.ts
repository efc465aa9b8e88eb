import fp from 'fastify-plugin';
import { reportRoutes } from './routes.js';

/**
 * A catalogue's stock reports: its stock over time, its top movers, its dead stock and what to
 * reorder, each as JSON and as a CSV file. Read-only, added up by the database (queries.ts).
 */
export const reportsRoutes = fp(reportRoutes, {
  name: 'reports',
  dependencies: ['products'],
  encapsulate: true,
});

// For purchasing: the drafts of what is low are made from this report's own query.
export { ReportQueries } from './queries.js';
export { toOrder } from './to-order.js';

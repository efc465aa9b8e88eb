import fp from 'fastify-plugin';
import type { DatabaseHandle, DB } from './handle.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    /** The query builder of `database`. */
    db: DB;
  }
}

/**
 * The open database (its owner opens and closes it: start.ts, or a test), with lost connections
 * logged: they are no request's error, the query in flight rejects on its own.
 */
export const databasePlugin = fp<{ database: DatabaseHandle }>(
  (app, { database }, done) => {
    app.decorate('database', database);
    app.decorate('db', database.db);
    database.reportConnectionErrorsTo((error) =>
      app.log.warn({ err: error }, 'database connection lost; the pool opens a new one'),
    );
    done();
  },
  { name: 'database' },
);

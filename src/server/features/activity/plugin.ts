import fp from 'fastify-plugin';
import { recordActivity } from './record.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The activity log, for the features whose own index the activity feature imports (the
     * catalogues and invitations): a decoration rather than an import keeps the imports acyclic.
     */
    activity: { record: typeof recordActivity };
  }
}

export const activityPlugin = fp(
  (app, _options, done) => {
    app.decorate('activity', { record: recordActivity });
    done();
  },
  { name: 'activity', dependencies: ['database'] },
);

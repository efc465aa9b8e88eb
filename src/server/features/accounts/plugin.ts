import fp from 'fastify-plugin';
import { CodeMails } from './code-mails.js';
import { SessionLookup } from './sessions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Finds the signed-in user of a bearer token (the protected scope asks it). */
    sessions: SessionLookup;
  }
}

/**
 * What the accounts feature gives the rest of the app: the session lookup behind every protected
 * route, and the code mails the outbox's worker prepares at send time.
 */
export const accountsPlugin = fp(
  (app, _options, done) => {
    const { config, clock } = app;
    const warn = (error: unknown) => app.log.warn({ err: error }, 'recording a session use failed');
    app.decorate('sessions', new SessionLookup(app.database, clock, undefined, warn));
    app.outbox.prepareRequestsWith(
      new CodeMails(app.db, clock, config.appSecret, config.publicUrl),
    );
    done();
  },
  { name: 'accounts', dependencies: ['settings', 'database', 'outbox'] },
);

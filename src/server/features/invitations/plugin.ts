import fp from 'fastify-plugin';
import { recordMemberJoined } from '../live-events/index.js';
import { Invitations } from './invitations.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Invitations to join a catalogue by e-mail (features/invitations). */
    invitations: Invitations;
  }
}

export const invitationsPlugin = fp(
  (app, _options, done) => {
    app.decorate(
      'invitations',
      new Invitations({
        db: app.db,
        dialect: app.database.dialect,
        clock: app.clock,
        outbox: app.outbox,
        publicUrl: app.config.publicUrl,
        onJoined: recordMemberJoined,
      }),
    );
    done();
  },
  { name: 'invitations', dependencies: ['settings', 'database', 'outbox'] },
);

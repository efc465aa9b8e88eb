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
        invitationsPerAccount: app.config.accountBudgets.invitationsPerDay,
        // Members' streams hear of the join, and the catalogue's activity log keeps it.
        onJoined: async (trx, catalogueId, userId, now, role) => {
          await recordMemberJoined(trx, catalogueId, userId, now);
          const user = await trx
            .selectFrom('users')
            .select(['id', 'name'])
            .where('id', '=', userId)
            .executeTakeFirstOrThrow();
          const scope = { id: catalogueId, actorId: userId };
          await app.activity.record(
            trx,
            scope,
            'member.added',
            { data: { member: user, role } },
            now,
          );
        },
      }),
    );
    done();
  },
  { name: 'invitations', dependencies: ['settings', 'database', 'outbox', 'activity'] },
);

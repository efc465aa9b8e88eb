import fp from 'fastify-plugin';
import { LiveHub } from './hub.js';

/** The stream position a read was answered at (preHandler below). */
const LIVE_EVENT_ID_HEADER = 'live-event-id';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open event streams (features/live-events). */
    liveEvents: LiveHub;
  }
}

/** Streams one process holds open unless LIVE_STREAMS_MAX says otherwise. */
const DEFAULT_MAX_STREAMS = 5_000;
/** How often events beyond those kept for reconnects go. */
const PRUNE_MS = 60_000;

/**
 * The hub of this process's event streams, and the pruning of old events on the runner. Closing the app ends every stream first (preClose),
 * so that open streams never hold the shutdown up.
 */
export const liveEventsPlugin = fp(
  async (app) => {
    const hub = new LiveHub(app.database, app.clock, {
      maxStreams: app.config.liveStreamsMax ?? DEFAULT_MAX_STREAMS,
      warn: (error, message) => app.log.warn({ err: error }, message),
    });
    await hub.start();
    app.decorate('liveEvents', hub);
    app.runner.every({ name: 'pruning live events', everyMs: PRUNE_MS, run: () => hub.prune() });
    // A signed-in read says where the event stream stood when it was answered: the app opens its
    // stream from there (Last-Event-ID), so a change landing between its first reads and the
    // stream's start is not lost. Read before the answer is, so it is never ahead of what it saw.
    app.addHook('preHandler', async (request, reply) => {
      if (request.method === 'GET' && request.headers.authorization) {
        reply.header(LIVE_EVENT_ID_HEADER, String(hub.position()));
      }
    });
    app.addHook('preClose', (done) => {
      hub.closeAll();
      done();
    });
  },
  { name: 'live-events', dependencies: ['settings', 'database', 'runner'] },
);

import fp from 'fastify-plugin';
import { LiveHub } from './hub.js';

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
    app.addHook('preClose', (done) => {
      hub.closeAll();
      done();
    });
  },
  { name: 'live-events', dependencies: ['settings', 'database', 'runner'] },
);

import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '../../../shared/messages.js';
import { LIVE_EVENT_KINDS, LIVE_STREAMS_PER_USER } from '../../../shared/schemas/live-events.js';
import { currentSession } from '../../http/authenticate.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import { HttpError } from '../../lib/http-error.js';
import { named } from '../../http/plugin-name.js';

/** Seconds a refused stream is told to wait before it tries again. */
const RETRY_AFTER_SECONDS = '5';

const DESCRIPTION = `Server-Sent Events: one per committed change of every catalogue you belong to, as \`id: <number>\`, \`event: <kind>\` and one \`data:\` line of JSON, which always names the \`catalogueId\` it concerns. Kinds: \`product.created\` and \`product.updated\` (\`{product}\`, the whole product), \`product.deleted\` (\`{id}\`), \`stock.changed\` (\`{id, stock, updatedAt}\`), \`products.deleted\` (\`{ids}\`), \`import.done\` (\`{created, updated}\`), \`catalogue.updated\` (renamed, a member joined, left or changed role, you included: read the catalogues again), \`catalogue.removed\` (you no longer belong to it: removed, left or deleted; the stream ends after it, and a reconnect carries your other catalogues), \`reset\` (\`{}\`: read everything again): ${LIVE_EVENT_KINDS.length} kinds in all. The catalogues are read when the stream opens and again when you join one, so an open stream starts carrying a catalogue once you accept its invitation. Ids grow: reconnect with \`Last-Event-ID\` to get the events after it of the catalogues you belong to now, or one \`reset\` when they are no longer held. Comment lines (\`: heartbeat\`, every 25 s) carry nothing. At most ${LIVE_STREAMS_PER_USER} streams per user on every instance together (429) and a bounded number per server (503), both with \`Retry-After\`. A revoked session's streams end.`;

/** `GET /api/events`: the signed-in user's catalogue changes as they commit. */
export const liveEventRoutes = named('live-event-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { rateLimits } = app;
  const perUser = app.config.liveStreamsPerUser ?? LIVE_STREAMS_PER_USER;

  app.get(
    '/events',
    {
      config: rateLimit(rateLimits, rateLimits.general),
      schema: {
        tags: ['products'],
        operationId: 'streamEvents',
        summary: "Your catalogues' changes as they commit (Server-Sent Events)",
        description: DESCRIPTION,
        headers: z.looseObject({
          'last-event-id': z
            .string()
            .max(64)
            .optional()
            .describe('The id of the last event received, to resume after it'),
        }),
        response: {
          200: {
            description: 'An event stream that stays open',
            content: {
              'text/event-stream': { schema: z.unknown().describe('text/event-stream, UTF-8') },
            },
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = currentSession(request);
      const hub = app.liveEvents;
      const headers = { 'retry-after': RETRY_AFTER_SECONDS };
      if (hub.isFull()) throw new HttpError(503, M.liveStreamsFull, headers);
      // A user's streams are counted over every instance, each until it ends.
      const release = await app.userLeases.take('live-stream', user.id, perUser);
      if (!release) throw new HttpError(429, M.liveStreamsPerUser, headers);
      reply.raw.once('close', release);
      // The stream is written to the socket as it goes: no compression (which would buffer it),
      // no idle timeout (heartbeats keep proxies from closing it).
      reply.hijack();
      const res = reply.raw;
      request.raw.socket.setTimeout(0);
      request.raw.socket.setNoDelay(true);
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      const lastEventId = request.headers['last-event-id'];
      await hub.add({ userId: user.id, sessionId, res }, lastEventId);
    },
  );
});

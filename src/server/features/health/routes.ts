import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '../../../shared/messages.js';
import { isDatabaseReachable } from '../../infra/db/handle.js';
import { errorResponses } from '../../http/route-options.js';
import { named } from '../../http/plugin-name.js';

/** Seconds a load balancer is asked to wait before it asks again. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

export const healthRoutes = named('health-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'The process is up',
        description: 'Answers without touching the database: for liveness probes.',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'The database is reachable',
        description:
          'For readiness probes and load balancers: 503 while the database cannot be reached.',
        response: { 200: z.object({ status: z.literal('ready') }), ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      if (await isDatabaseReachable(app.db)) return { status: 'ready' as const };
      return reply
        .code(503)
        .header('retry-after', String(NOT_READY_RETRY_AFTER_SECONDS))
        .send({ message: M.notReady });
    },
  );
});

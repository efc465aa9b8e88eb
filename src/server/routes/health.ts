import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '../../shared/messages.js';
import { errorSchema } from '../../shared/schemas/common.js';
import { isDatabaseReachable } from '../db/handle.js';
import { publicRoute } from '../plugins/authenticate.js';

export async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/health',
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      config: publicRoute,
      schema: {
        tags: ['health'],
        summary: 'The database is reachable',
        response: { 200: z.object({ status: z.literal('ready') }), 503: errorSchema },
      },
    },
    async (_request, reply) => {
      if (await isDatabaseReachable(app.db)) return { status: 'ready' as const };
      return reply.code(503).send({ message: M.notReady });
    },
  );
}

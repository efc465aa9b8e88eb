import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { M } from '../../../shared/messages.js';
import { connectRedis } from '../../infra/redis/redis.js';

/**
 * Per-IP rate limits, enabled route by route (`config.rateLimit`). With REDIS_URL every instance
 * counts against the same budgets, which outlive restarts; without Redis (unset, or down for a
 * while) each process counts alone or not at all, but keeps serving.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  redisUrl: string | undefined,
  nameSpace = 'stockroom:rate-limit:',
) {
  const redis = redisUrl ? await connectRedis(redisUrl, app.log) : undefined;
  if (redis) {
    // Counted from the first request when Redis is up; start-up is not held for long when it is not.
    app.addHook('onReady', () => redis.ready(2_000));
    app.addHook('onClose', async () => redis.close());
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis && { redis: redis.client, nameSpace, skipOnError: true }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: M.tooManyRequests,
      retryAfter: context.after,
    }),
  });
}

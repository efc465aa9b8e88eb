import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface RedisConnection {
  client: Redis;
  /** Resolves once connected, or after `timeoutMs` if Redis does not answer by then. */
  ready(timeoutMs: number): Promise<void>;
  /** Disconnects for good (no more reconnecting, nothing logged). */
  close(): void;
}

/**
 * A Redis client for work that may be skipped while Redis is away (the shared rate limits): a
 * command fails at once instead of waiting for a connection, so callers can fail open and no
 * request hangs. The client reconnects on its own, forever, with a capped back-off; the log says
 * once when Redis is lost and once when it is back, not at every failed attempt. ioredis is only
 * loaded here, so a server without REDIS_URL never pays for it.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisConnection> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    // Without a connection a command is refused now, not queued until Redis returns.
    enableOfflineQueue: false,
    // A command cut off with its connection fails instead of being sent again after reconnecting.
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    // A connection that is up but silent (a host gone without a reset) must not hold requests.
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  let closing = false;
  let lost = false;
  const onLost = (error?: Error) => {
    if (closing || lost) return;
    lost = true;
    log.warn(
      error ? { err: error } : {},
      'Redis is unreachable: rate limits are not applied until it is back (reconnecting)',
    );
  };
  // 'close' comes first when an open connection drops; 'error' when connecting fails.
  client.on('close', () => onLost());
  client.on('error', (error: Error) => onLost(error));
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info('Redis is reachable again: rate limits apply again');
  });
  return {
    client,
    ready: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (client.status === 'ready') return resolve();
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        client.once('ready', done);
      }),
    close: () => {
      closing = true;
      client.disconnect();
    },
  };
}

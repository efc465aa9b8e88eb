import type { FastifyBaseLogger } from 'fastify';
import type { Command, Redis } from 'ioredis';

export interface RedisConnection {
  client: Redis;
  /** Resolves once connected, or after `timeoutMs` if Redis does not answer by then. */
  ready(timeoutMs: number): Promise<void>;
  /** Disconnects for good (no more reconnecting, nothing logged). */
  close(): void;
}

/**
 * How long a command may take before it counts as failed: a request that uses Redis pays at most
 * this much when Redis stops answering (a healthy one answers in well under a millisecond).
 */
const COMMAND_TIMEOUT_MS = 40;
const TIMED_OUT = 'Command timed out';
/** After a command timed out, commands fail at once for this long; then one is tried again. */
const STALLED_PAUSE_MS = 1_000;

/**
 * A Redis client for work that may be skipped while Redis is away (the shared rate limits): a
 * command fails at once instead of waiting for a connection, and fails after COMMAND_TIMEOUT_MS
 * when a connected Redis stops answering; after such a timeout every command fails at once for
 * STALLED_PAUSE_MS, so a stall costs a request at most one timeout and most nothing. Callers fall
 * back (the rate limits are not applied meanwhile). The client reconnects on its own, forever,
 * with a capped back-off; the log says once when Redis is lost or stalls and once when it is
 * back, not at every failed attempt. ioredis is only loaded here, so a server without REDIS_URL
 * never pays for it.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisConnection> {
  const { Redis } = await import('ioredis');
  let closing = false;
  let lost = false;
  let pausedUntil = 0;
  const onLost = (reason: string, error?: Error) => {
    if (closing || lost) return;
    lost = true;
    log.warn(
      error ? { err: error } : {},
      `Redis is ${reason}: rate limits are not applied until it is back`,
    );
  };
  const onBack = () => {
    if (!lost) return;
    lost = false;
    log.info('Redis is reachable again: rate limits apply again');
  };

  /**
   * ioredis with each command's time limit and the pause after one ran out: every command goes
   * through sendCommand. The limit is checked after the event loop has read what arrived
   * (setImmediate runs after the poll phase): a process too busy to read an answer in time has
   * not met a stalled Redis.
   */
  class GuardedRedis extends Redis {
    override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]) {
      // Not while connecting: the handshake's commands must go through.
      if (this.status === 'ready' && performance.now() < pausedUntil) {
        command.reject(new Error('Redis stalled: command not sent'));
        return command.promise;
      }
      let settled = false;
      const limit = setTimeout(
        () =>
          setImmediate(() => {
            if (settled) return;
            command.reject(new Error(TIMED_OUT));
            pausedUntil = performance.now() + STALLED_PAUSE_MS;
            onLost(`not answering (a command took over ${COMMAND_TIMEOUT_MS} ms)`);
          }),
        COMMAND_TIMEOUT_MS,
      );
      command.promise.then(
        () => {
          settled = true;
          clearTimeout(limit);
          if (this.status === 'ready') onBack();
        },
        () => {
          settled = true;
          clearTimeout(limit);
        },
      );
      return super.sendCommand(command, stream);
    }
  }

  const client = new GuardedRedis(url, {
    // Without a connection a command is refused now, not queued until Redis returns.
    enableOfflineQueue: false,
    // A command cut off with its connection fails instead of being sent again after reconnecting.
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // 'close' comes first when an open connection drops; 'error' when connecting fails.
  client.on('close', () => onLost('unreachable (reconnecting)'));
  client.on('error', (error: Error) => onLost('unreachable (reconnecting)', error));
  client.on('ready', onBack);
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

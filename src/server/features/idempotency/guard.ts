import type { FastifyReply, FastifyRequest } from 'fastify';
import { M } from '../../../shared/messages.js';
import type { DB } from '../../infra/db/handle.js';
import { HttpError } from '../../lib/http-error.js';
import {
  fingerprintOf,
  KeyTakenMeanwhile,
  type Answer,
  type IdempotencyStore,
  type StoredAnswer,
} from './store.js';

/** Records the answer inside the write's transaction (a no-op without a key). */
export type RecordAnswer = (trx: DB, answer: Answer) => Promise<void>;

/**
 * Runs one product write under the request's Idempotency-Key, if it has one; without one it just
 * runs. With one: an answer stored under the key is given again (422 if it was for another
 * request); otherwise `write` runs and records its answer in its own transaction. A request that
 * lost to a concurrent one with the same key (its transaction rolled back), or that failed because
 * that one changed things first (a 404 for a product it deleted), gives that one's answer instead.
 * `request` is what identifies the request besides the route and the user (params, body).
 */
export async function idempotently(
  store: IdempotencyStore,
  http: { request: FastifyRequest; reply: FastifyReply; ownerId: string; now: number },
  request: unknown,
  write: (record: RecordAnswer) => Promise<Answer>,
): Promise<Answer> {
  const key = http.request.headers['idempotency-key'];
  if (typeof key !== 'string') return write(async () => {});
  const { ownerId, now, reply } = http;
  const fingerprint = fingerprintOf([http.request.method, http.request.routeOptions.url, request]);
  const replay = (stored: StoredAnswer): Answer => {
    if (stored.fingerprint !== fingerprint) throw new HttpError(422, M.idempotencyKeyReused);
    void reply.header('idempotent-replayed', 'true');
    return stored;
  };
  const earlier = await store.find(ownerId, key, now);
  if (earlier) return replay(earlier);
  try {
    return await write((trx, answer) =>
      store.record(trx, { ownerId, key, fingerprint, answer, now }),
    );
  } catch (error) {
    const lostRace =
      error instanceof KeyTakenMeanwhile ||
      (error instanceof HttpError && error.statusCode >= 400 && error.statusCode < 500);
    if (!lostRace) throw error;
    const winner = await store.find(ownerId, key, now);
    if (winner) return replay(winner);
    throw error;
  }
}

/** Sends an answer, first or given again (its body matches the route's schema for its status). */
export const sendAnswer = (reply: FastifyReply, answer: Answer) =>
  reply.code(answer.status as 200).send(answer.body as never);

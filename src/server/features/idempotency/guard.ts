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
  const recorded: { answer?: Answer } = {};
  try {
    const answer = await write((trx, first) => {
      recorded.answer = first;
      return store.record(trx, { ownerId, key, fingerprint, answer: first, now });
    });
    if (recorded.answer && differ(recorded.answer, answer)) {
      await keepGiven(store, http, key, answer);
    }
    return answer;
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

const differ = (recorded: Answer, given: Answer) =>
  recorded !== given && JSON.stringify(recorded) !== JSON.stringify(given);

/**
 * A write that answers after more work past its commit (an import applied after it, on SQLite:
 * its count of updates less the products deleted meanwhile) keeps the answer it gave instead of
 * the one recorded at the commit. The write committed: a failure here keeps the recorded answer,
 * which is what a process that died before this point leaves, and is only logged.
 */
async function keepGiven(
  store: IdempotencyStore,
  http: { request: FastifyRequest; ownerId: string },
  key: string,
  answer: Answer,
) {
  try {
    await store.replace(http.ownerId, key, answer);
  } catch (error) {
    http.request.log.warn({ err: error }, 'The answer of an idempotent write was not updated');
  }
}

/** Sends an answer, first or given again (its body matches the route's schema for its status). */
export const sendAnswer = (reply: FastifyReply, answer: Answer) =>
  reply.code(answer.status as 200).send(answer.body as never);

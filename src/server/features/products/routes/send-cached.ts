import type { FastifyReply } from 'fastify';
import { preferredEncoding, ResponseCache } from '../response-cache.js';

/**
 * Answers a read from the cache, or builds the answer, keeps its bytes (compressed for the
 * client's Accept-Encoding when over 1 KB, see ResponseCache.answer) and sends them. Keys start
 * with the catalogue and the version the request found it at. `build` throws for an
 * error answer, which is never kept. What is kept is the route's own serialized output (its 200
 * response schema, which strips every field it does not name), so the cache can never send a
 * field that the schema would not.
 */
export async function sendCached(
  reply: FastifyReply,
  responses: ResponseCache,
  key: { catalogue: { id: string; version: number }; query: object },
  build: () => Promise<object>,
) {
  const cacheKey = ResponseCache.key(key.catalogue.id, key.catalogue.version, key.query);
  const { body, encoding } = await responses.answer(
    cacheKey,
    preferredEncoding(reply.request.headers['accept-encoding']),
    async () => asBuffer(reply.serialize(await build())),
  );
  addVaryAcceptEncoding(reply);
  // A set Content-Encoding tells @fastify/compress the bytes are compressed already.
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type('application/json; charset=utf-8').send(body);
}

/** The zod serializer gives a string; Fastify's type allows bytes too. */
const asBuffer = (serialized: string | Buffer | ArrayBuffer) =>
  typeof serialized === 'string' || Buffer.isBuffer(serialized)
    ? Buffer.from(serialized)
    : Buffer.from(new Uint8Array(serialized));

/** The answer depends on Accept-Encoding: shared caches must keep the variants apart. */
function addVaryAcceptEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const names = String(vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  if (vary === undefined) reply.header('vary', 'Accept-Encoding');
  else if (!names.includes('accept-encoding') && !names.includes('*')) {
    reply.header('vary', `${String(vary)}, Accept-Encoding`);
  }
}

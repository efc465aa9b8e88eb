import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * JSON answers over 1 KB go out compressed. Before the routes: it hooks each route as it is added.
 * Only JSON: the client's files come pre-compressed from the build (http/client) and images are
 * WebP already. The cached product reads set their own Content-Encoding, which this leaves alone.
 * Request bodies are not decompressed: the API takes none.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: /^application\/json(;|$)/,
    globalDecompression: false,
  });
}

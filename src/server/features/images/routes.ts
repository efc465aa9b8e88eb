import type { Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '../../../shared/messages.js';
import { PLACEHOLDER_NAME, PLACEHOLDER_SVG } from '../../infra/images/placeholder.js';
import { notFound } from '../../lib/http-error.js';
import { errorResponses } from '../../http/route-options.js';
import { named } from '../../http/plugin-name.js';

/** A picture's bytes (a file stream, or the placeholder's text), documented as a file. */
const picture = z.custom<Readable | string>(() => true).meta({ type: 'string', format: 'binary' });

/** Stored files never change (a new image gets a new name), so browsers may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Product pictures, public like any <img> source: the unguessable name is the only key. */
export const imageRoutes = named('image-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { images } = app;

  app.get(
    '/:name',
    {
      schema: {
        operationId: 'getImage',
        tags: ['images'],
        summary: 'A product image, its thumbnail, or the placeholder picture',
        description:
          'The URLs come from the `image` and `thumbnail` fields of products; they change whenever the image changes.',
        // Any name is taken (one that is not a stored picture's is a 404).
        params: z.object({
          name: z
            .string()
            .meta({ pattern: '^[a-z0-9][a-z0-9-]{7,80}\\.(?:webp|svg)$', maxLength: 100 }),
        }),
        response: {
          200: {
            description: 'The picture: WebP, or SVG for the placeholder',
            content: {
              'image/webp': { schema: picture },
              'image/svg+xml': { schema: picture },
            },
          },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      reply.header('cache-control', IMMUTABLE);
      if (name === PLACEHOLDER_NAME) {
        // An SVG opened on its own is a document: forbid it any script or remote load.
        return reply
          .type('image/svg+xml')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(PLACEHOLDER_SVG);
      }
      const file = await images.open(name);
      if (!file) {
        reply.header('cache-control', 'no-store');
        throw notFound(M.notFound);
      }
      return reply
        .type('image/webp')
        .header('content-length', file.size)
        .header('content-security-policy', "default-src 'none'")
        .send(file.stream);
    },
  );
});

import fp from 'fastify-plugin';
import { createImageStorage } from './create-storage.js';
import type { ImageStorage } from './storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded product images (local disk under DATA_DIR, or S3). */
    images: ImageStorage;
  }
}

/**
 * Where product images are kept: the storage passed in (its caller closes it), or the one the
 * configuration names, which the app closes with itself.
 */
export const imagesPlugin = fp<{ images?: ImageStorage | undefined }>(
  (app, options, done) => {
    const { config } = app;
    const images =
      options.images ??
      createImageStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl, ...config.s3 });
    app.decorate('images', images);
    if (!options.images) app.addHook('onClose', async () => images.close?.());
    done();
  },
  { name: 'images', dependencies: ['settings'] },
);

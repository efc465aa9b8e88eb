import fp from 'fastify-plugin';
import { PLACEHOLDER_NAME } from '../../infra/images/placeholder.js';
import { ProductImages } from './product-images.js';
import { ProductRepository } from './repository.js';
import { ProductRestores } from './restore.js';
import { ResponseCache } from './response-cache.js';
import { ProductService } from './service.js';
import type { ProductsContext } from './routes/context.js';
import { presenters } from './routes/presenters.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product catalogue's data access, service and presenters (this feature's and catalogue-ops'). */
    products: ProductsContext;
  }
}

/** Each signed-in user's own catalogue, decorated once for the routes that read and write it. */
export const productsPlugin = fp<{ responseCacheBytes?: number | undefined }>(
  (app, options, done) => {
    const { db, database, clock, config, images } = app;
    const placeholderUrl = `${config.publicUrl}/api/images/${PLACEHOLDER_NAME}`;
    const productImages = new ProductImages(images, placeholderUrl, app.log);
    const repository = new ProductRepository(db, database.dialect);
    app.decorate('products', {
      repository,
      service: new ProductService(repository, productImages, clock),
      restores: new ProductRestores(database.dialect),
      present: presenters(productImages),
      responses: new ResponseCache(options.responseCacheBytes),
    });
    done();
  },
  { name: 'products', dependencies: ['settings', 'database', 'images'] },
);

import fp from 'fastify-plugin';
import type { DB } from '../../infra/db/handle.js';
import { PLACEHOLDER_NAME } from '../../infra/images/placeholder.js';
import { deleteCatalogueProducts } from './delete-writes.js';
import { sweepFailedImports } from './failed-imports.js';
import { sweepOrphanImages } from './orphan-images.js';
import { ProductImages } from './product-images.js';
import { ProductRepository } from './repository.js';
import { ResponseCache } from './response-cache.js';
import { searchIndexMerges } from './search/sqlite-merges.js';
import { setCatalogueReorderPoint } from './point-change.js';
import type { ProductsContext } from './routes/context.js';
import { presenters } from './routes/presenters.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The product catalogue's data access, service and presenters (this feature's and catalogue-ops'). */
    products: ProductsContext & {
      /** A catalogue's default reorder point, set in the caller's transaction (point-change.ts). */
      setCatalogueReorderPoint(
        trx: DB,
        catalogueId: string,
        point: number,
        now: number,
      ): Promise<void>;
      /** Removes the files of images no product refers to any more, after the commit. */
      removeImages(keys: Iterable<string>): Promise<void>;
      /** A catalogue's products deleted in its deleting transaction, in bounded batches. */
      deleteCatalogueProducts(trx: DB, catalogueId: string): Promise<void>;
    };
  }
}

/** How often the orphan-image sweep runs: deleted products' pictures go once 7 days have passed. */
const SWEEP_EVERY_MS = 24 * 60 * 60 * 1000;
/** The first sweep waits this long: it reads every image file, which the first requests need not. */
const FIRST_SWEEP_AFTER_MS = 2_000;

/**
 * How often the products an import left staged when its process died are swept: until then they
 * are invisible, but their codes are taken (a code is the catalogue's, visible or not).
 */
const FAILED_IMPORTS_EVERY_MS = 60_000;

/**
 * How often SQLite's search index is merged (search/sqlite-merges.ts): writes leave it to this
 * job, and a write merges itself only when 16 flushes pile up on the smallest level between runs.
 */
const SEARCH_MERGES_EVERY_MS = 1_000;

/** The name of that job (tests run it with `runner.runNow`). */
const SEARCH_MERGES_JOB = 'merging the search index';

/**
 * Each signed-in user's own catalogue, decorated once for the routes that read and write it, and
 * the runner's sweep of image files no product needs (sweepOrphanImages), shortly after start, then
 * daily; the sweep of what failed imports left staged (sweepFailedImports), every minute; and on
 * SQLite, the search index's merging in bounded steps, every second.
 */
export const productsPlugin = fp<{ responseCacheBytes?: number | undefined }>(
  (app, options, done) => {
    const { db, database, clock, config, images } = app;
    const placeholderUrl = `${config.publicUrl}/api/images/${PLACEHOLDER_NAME}`;
    const productImages = new ProductImages(images, placeholderUrl, app.log);
    const repository = new ProductRepository(db, database.dialect);
    app.decorate('products', {
      repository,
      images: productImages,
      setCatalogueReorderPoint: (trx: DB, catalogueId: string, point: number, now: number) =>
        setCatalogueReorderPoint(trx, catalogueId, point, now, database.dialect),
      removeImages: async (keys: Iterable<string>) => {
        for (const key of keys) await productImages.remove(key);
      },
      deleteCatalogueProducts: (trx: DB, catalogueId: string) =>
        deleteCatalogueProducts(trx, catalogueId, database.dialect),
      present: presenters(productImages),
      responses: new ResponseCache(options.responseCacheBytes),
    });
    app.runner.every({
      name: 'sweeping orphan image files',
      everyMs: SWEEP_EVERY_MS,
      firstAfterMs: FIRST_SWEEP_AFTER_MS,
      run: async () => {
        const removed = await sweepOrphanImages(images, repository, clock.now());
        if (removed.length > 0) app.log.info({ files: removed }, 'removed orphan image files');
      },
    });
    app.runner.every({
      name: 'sweeping failed imports',
      everyMs: FAILED_IMPORTS_EVERY_MS,
      run: async () => {
        const removed = await sweepFailedImports(database, clock.now());
        if (removed > 0) app.log.info({ products: removed }, 'swept failed imports');
      },
    });
    if (database.dialect === 'sqlite') {
      app.runner.every({
        name: SEARCH_MERGES_JOB,
        everyMs: SEARCH_MERGES_EVERY_MS,
        run: searchIndexMerges(database),
      });
    }
    done();
  },
  { name: 'products', dependencies: ['settings', 'database', 'images', 'runner'] },
);

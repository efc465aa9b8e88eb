import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { multipartLimits } from '../products/index.js';
import { plannerStatistics } from '../../infra/db/planner-statistics.js';
import { ImportSlots } from './import-slots.js';
import type { CatalogueContext } from './routes/context.js';
import { catalogueRoutes } from './routes/catalogue.js';
import { importRoute } from './routes/import.js';
import { labelsRoute } from './routes/labels.js';
import { stockImportRoute } from './routes/stock-import.js';
import { bulkRateLimiter } from './routes/route-options.js';

/**
 * CSV imports a process runs at once (dry runs included): each holds up to 10 MB of checked rows,
 * and on SQLite their writes take turns anyway.
 */
const IMPORTS_AT_ONCE = 3;

/**
 * The whole catalogue at once: CSV import and export, printed labels, bulk delete. Its own scope
 * (encapsulated), on the products' data access, under one shared rate limit.
 */
export const catalogueOpsRoutes = fp(
  async (fastify) => {
    // Scoped to these routes: the import takes its file as multipart.
    await fastify.register(multipart, { limits: multipartLimits, throwFileSizeLimit: true });
    const statistics = plannerStatistics(fastify.database, fastify.log);
    fastify.addHook('onClose', () => statistics.settled());
    const context: CatalogueContext = {
      repository: fastify.products.repository,
      present: fastify.products.present,
      removeImages: fastify.products.removeImages,
      bulkLimiter: bulkRateLimiter(fastify),
      imports: new ImportSlots(IMPORTS_AT_ONCE, fastify.userLeases),
      statistics,
    };
    await fastify.register(labelsRoute, context);
    await fastify.register(catalogueRoutes, context);
    await fastify.register(importRoute, context);
    await fastify.register(stockImportRoute, context);
  },
  {
    name: 'catalogue-ops',
    dependencies: ['products', 'user-leases', 'locations'],
    encapsulate: true,
  },
);

export { csvStream } from './csv-writer.js';
/** The label maker, loaded on first use: other things with a code print labels with it too. */
export { sendLabelsPdf } from './routes/send-labels.js';
export { csvExport } from './csv-export.js';
/** The labels' fonts, text and codes, loaded on first use (a count sheet prints with them). */
export const loadPrintKit = () => import('./labels/print-kit.js');

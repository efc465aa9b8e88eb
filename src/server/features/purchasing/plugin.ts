import fp from 'fastify-plugin';
import type { ProductSupplier } from '../../../shared/schemas/products.js';
import { suppliersOfProduct } from './suppliers.js';

/** What other features read of purchasing: the single-product read shows who sells it. */
interface Purchasing {
  suppliersOf(catalogueId: string, productId: string): Promise<ProductSupplier[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Suppliers and purchase orders (features/purchasing). */
    purchasing: Purchasing;
  }
}

/** Purchasing's reads for the rest of the app, decorated once for every catalogue scope. */
export const purchasingPlugin = fp(
  async (app) => {
    const { db } = app;
    app.decorate('purchasing', {
      suppliersOf: (catalogueId, productId) => suppliersOfProduct(db, catalogueId, productId),
    } satisfies Purchasing);
  },
  { name: 'purchasing', dependencies: ['database'] },
);

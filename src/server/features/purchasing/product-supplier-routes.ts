import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { productIdParamsSchema } from '../../../shared/schemas/product-queries.js';
import {
  PRODUCT_SUPPLIERS_MAX,
  SUP,
  productSuppliersBodySchema,
  productSuppliersResponseSchema,
} from '../../../shared/schemas/purchasing/suppliers.js';
import { errorResponses } from '../../http/route-options.js';
import { notFound } from '../../lib/http-error.js';
import { sendCatalogueWrite } from '../writes/index.js';
import { purchasingOutcome } from './outcome.js';
import { setProductSuppliers, suppliersOfProduct } from './suppliers.js';
import { actionConfig } from '../catalogues/index.js';
import { named } from '../../http/plugin-name.js';

/**
 * Who sells a product, at `/api/products/{id}/suppliers` for the personal catalogue and under
 * `/api/catalogues/{catalogueId}/products` for any: editors and above set them.
 */
export const productSupplierRoutes = named('product-supplier-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put(
    '/:id/suppliers',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'setProductSuppliers',
        tags: ['purchasing'],
        summary: "Set a product's suppliers",
        description: `The whole list, replacing the one before (at most ${PRODUCT_SUPPLIERS_MAX}; an empty list: none): each \`{supplierId, supplierSku, cost, preferred}\`, a supplier once, at most one preferred (the one "Order what's low" orders from). A product or supplier not the catalogue's: 404.`,
        params: productIdParamsSchema,
        body: productSuppliersBodySchema,
        response: { 200: productSuppliersResponseSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const product = await setProductSuppliers(w, request.params.id, request.body);
        if (!product) throw notFound(SUP.productNotFound);
        const suppliers = await suppliersOfProduct(w.trx, w.catalogueId, product.id);
        return purchasingOutcome(
          { status: 200, body: { message: SUP.productSuppliersSaved, suppliers } },
          'product.suppliers_changed',
          { product, data: { suppliers } },
          [product.id],
        );
      });
    },
  );
});

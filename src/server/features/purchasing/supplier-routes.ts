import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SUP,
  SUPPLIER_NAME_MAX,
  SUPPLIERS_MAX,
  supplierCreateSchema,
  supplierParamsSchema,
  supplierResponseSchema,
  supplierSavedSchema,
  suppliersResponseSchema,
  supplierUpdateSchema,
} from '../../../shared/schemas/purchasing/suppliers.js';
import { messageSchema } from '../../../shared/schemas/common.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { sendCatalogueWrite } from '../writes/index.js';
import { purchasingOutcome } from './outcome.js';
import {
  createSupplier,
  deleteSupplier,
  findSupplier,
  listSuppliers,
  updateSupplier,
} from './suppliers.js';
import { named } from '../../http/plugin-name.js';

const NAME_RULE = `\`name\`: 1 to ${SUPPLIER_NAME_MAX} characters, unique in the catalogue whatever the case (else 409 \`${SUP.nameTaken}\`). \`email\` is where purchase orders are sent.`;

/**
 * A catalogue's suppliers, at `/api/suppliers` for the caller's personal catalogue and at
 * `/api/catalogues/{catalogueId}/suppliers` for any: every member reads them, editors and above
 * manage them.
 */
export const supplierRoutes = named('supplier-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['purchasing'];

  app.get(
    '/',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'listSuppliers',
        tags,
        summary: "The catalogue's suppliers",
        description: `Every supplier (at most ${SUPPLIERS_MAX.toLocaleString('en-US')}), by name.`,
        response: { 200: suppliersResponseSchema },
      },
    },
    async (request) => ({ suppliers: await listSuppliers(app.db, currentCatalogue(request).id) }),
  );

  app.post(
    '/',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'createSupplier',
        tags,
        summary: 'Add a supplier',
        description: `${NAME_RULE} At most ${SUPPLIERS_MAX.toLocaleString('en-US')} a catalogue (409 \`${SUP.tooMany}\`).`,
        body: supplierCreateSchema,
        response: { 201: supplierSavedSchema, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const supplier = await createSupplier(w, request.body);
        return purchasingOutcome(
          { status: 201, body: { message: SUP.created, supplier } },
          'supplier.created',
          { data: { supplier } },
        );
      });
    },
  );

  app.get(
    '/:supplierId',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'getSupplier',
        tags,
        summary: 'One supplier',
        description: `A supplier of another catalogue: 404 \`${SUP.notFound}\`.`,
        params: supplierParamsSchema,
        response: { 200: supplierResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      supplier: await findSupplier(app.db, currentCatalogue(request).id, request.params.supplierId),
    }),
  );

  app.patch(
    '/:supplierId',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'updateSupplier',
        tags,
        summary: 'Edit a supplier',
        description: `Any of \`name\`, \`email\`, \`phone\`, \`notes\` (null clears an optional one). ${NAME_RULE}`,
        params: supplierParamsSchema,
        body: supplierUpdateSchema,
        response: { 200: supplierSavedSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const supplier = await updateSupplier(w, request.params.supplierId, request.body);
        return purchasingOutcome(
          { status: 200, body: { message: SUP.updated, supplier } },
          'supplier.updated',
          { data: { supplier } },
        );
      });
    },
  );

  app.delete(
    '/:supplierId',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'deleteSupplier',
        tags,
        summary: 'Delete a supplier',
        description: `Its products forget it. A supplier that purchase orders name stays (409 \`${SUP.hasOrders}\`).`,
        params: supplierParamsSchema,
        response: { 200: messageSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const supplier = await deleteSupplier(w, request.params.supplierId);
        return purchasingOutcome(
          { status: 200, body: { message: SUP.deleted } },
          'supplier.deleted',
          { data: { supplier } },
        );
      });
    },
  );
});

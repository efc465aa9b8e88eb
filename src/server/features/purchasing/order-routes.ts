import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '../../../shared/schemas/common.js';
import { idempotentWriteHeadersSchema } from '../../../shared/schemas/idempotency.js';
import {
  PO,
  PURCHASE_ORDER_LINES_MAX,
  PURCHASE_ORDERS_PAGE_MAX,
  purchaseOrderCreateSchema,
  purchaseOrderListQuerySchema,
  purchaseOrderParamsSchema,
  purchaseOrderResponseSchema,
  purchaseOrderSavedSchema,
  purchaseOrdersDraftedSchema,
  purchaseOrdersResponseSchema,
  purchaseOrderUpdateSchema,
  receiptResponseSchema,
  receiptSchema,
} from '../../../shared/schemas/purchasing/purchase-orders.js';
import { errorResponses } from '../../http/route-options.js';
import { actionConfig, currentCatalogue } from '../catalogues/index.js';
import { sendCatalogueWrite } from '../writes/index.js';
import { named, purchasingOutcome } from './outcome.js';
import { deleteOrder, updateOrder } from './order-writes.js';
import { createOrder, findOrder, listOrders } from './purchase-orders.js';
import { receiveAgainst } from './receiving.js';
import { draftsFromReorder } from './reorder-drafts.js';
import { named as namedPlugin } from '../../http/plugin-name.js';

/** The largest body: the most lines, with room for white space. */
const LINES_BODY_MAX = PURCHASE_ORDER_LINES_MAX * 256;

/**
 * A catalogue's purchase orders, at `/api/purchase-orders` for the caller's personal catalogue
 * and at `/api/catalogues/{catalogueId}/purchase-orders` for any: every member reads them,
 * editors and above manage them, and the stock role receives against them.
 */
export const purchaseOrderRoutes = namedPlugin('order-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['purchasing'];

  app.get(
    '/',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'listPurchaseOrders',
        tags,
        summary: "The catalogue's purchase orders",
        description: `The newest ${PURCHASE_ORDERS_PAGE_MAX} first, without their lines; \`status\` keeps those in one status.`,
        querystring: purchaseOrderListQuerySchema,
        response: { 200: purchaseOrdersResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => ({
      purchaseOrders: await listOrders(app.db, currentCatalogue(request).id, request.query.status),
    }),
  );

  app.post(
    '/',
    {
      ...actionConfig(app, 'managePurchasing'),
      bodyLimit: LINES_BODY_MAX,
      schema: {
        operationId: 'createPurchaseOrder',
        tags,
        summary: 'Draft a purchase order',
        description: `A draft for one of the catalogue's suppliers, numbered next in the catalogue (PO-0001, PO-0002…, never given twice), with \`expectedAt\`, \`notes\` and up to ${PURCHASE_ORDER_LINES_MAX} \`lines\` \`{productId, quantity, unitCost?}\`: a unit cost not given is the supplier's for the product, else the product's cost, else 0. A supplier or product not the catalogue's: 404.`,
        body: purchaseOrderCreateSchema,
        response: { 201: purchaseOrderSavedSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const purchaseOrder = await createOrder(w, request.body);
        return purchasingOutcome(
          { status: 201, body: { message: PO.created, purchaseOrder } },
          'purchase_order.created',
          { data: { purchaseOrder: named(purchaseOrder) } },
        );
      });
    },
  );

  app.post(
    '/from-reorder',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'draftPurchaseOrdersFromReorder',
        tags,
        summary: "Order what's low: drafts from the products to reorder",
        description: `Takes no body. One draft per preferred supplier from the products the to-reorder report lists: each product with a preferred supplier, its \`reorderQuantity\`, else what brings it past its reorder point, less what is on order already. Nothing to order: 201 with no drafts.`,
        response: { 201: purchaseOrdersDraftedSchema },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const purchaseOrders = await draftsFromReorder(w);
        const body = { message: PO.drafted(purchaseOrders.length), purchaseOrders };
        if (purchaseOrders.length === 0) return { unchanged: true, answer: { status: 201, body } };
        return purchasingOutcome({ status: 201, body }, 'purchase_order.created', {
          data: { purchaseOrders: purchaseOrders.map(named) },
        });
      });
    },
  );

  app.get(
    '/:poId',
    {
      ...actionConfig(app, 'read'),
      schema: {
        operationId: 'getPurchaseOrder',
        tags,
        summary: 'One purchase order, with its lines',
        description: `An order of another catalogue: 404 \`${PO.notFound}\`.`,
        params: purchaseOrderParamsSchema,
        response: { 200: purchaseOrderResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      purchaseOrder: (await findOrder(app.db, currentCatalogue(request).id, request.params.poId))
        .order,
    }),
  );

  app.patch(
    '/:poId',
    {
      ...actionConfig(app, 'managePurchasing'),
      bodyLimit: LINES_BODY_MAX,
      schema: {
        operationId: 'updatePurchaseOrder',
        tags,
        summary: "Edit a draft, or move an order's status",
        description: `A draft's \`lines\` (all of them), \`expectedAt\` and \`notes\`; \`status\` \`ordered\` (a draft with lines) or \`cancelled\` (a draft, an ordered or a part-received order). Edits of an order that is not a draft, and every other move, are refused with 409 and change nothing.`,
        params: purchaseOrderParamsSchema,
        body: purchaseOrderUpdateSchema,
        response: { 200: purchaseOrderSavedSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const changed = await updateOrder(w, request.params.poId, request.body);
        const { order } = await findOrder(w.trx, w.catalogueId, changed.id);
        return purchasingOutcome(
          { status: 200, body: { message: PO.updated, purchaseOrder: order } },
          changed.kind,
          { data: { purchaseOrder: named(changed) } },
        );
      });
    },
  );

  app.delete(
    '/:poId',
    {
      ...actionConfig(app, 'managePurchasing'),
      schema: {
        operationId: 'deletePurchaseOrder',
        tags,
        summary: 'Delete a draft',
        description: `A draft, or a cancelled order nothing was received against; any other: 409 \`${PO.notDeletable}\`. Its number is not given again.`,
        params: purchaseOrderParamsSchema,
        response: { 200: messageSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite({ request, reply }, {}, async (w) => {
        const order = await deleteOrder(w, request.params.poId);
        return purchasingOutcome(
          { status: 200, body: { message: PO.deleted } },
          'purchase_order.deleted',
          { data: { purchaseOrder: named(order) } },
        );
      });
    },
  );

  app.post(
    '/:poId/receipts',
    {
      ...actionConfig(app, 'receiveStock'),
      bodyLimit: LINES_BODY_MAX,
      schema: {
        operationId: 'receivePurchaseOrder',
        tags,
        summary: 'Receive stock against an ordered purchase order',
        description: `\`{locationId, lines: [{productId, quantity}]}\` (1 to ${PURCHASE_ORDER_LINES_MAX} lines) in one transaction: each product's stock goes up in that location (a movement with reason \`received\` naming the order), its cost becomes the moving average of the stock on hand and what came in (to the cent), and the order moves to \`partially_received\` or \`received\`. More than ordered is accepted and said (\`overReceived\`). Only an ordered or part-received order (409); a product not on the order, or a location not the catalogue's: 404. Receipts made at once never count twice; an Idempotency-Key makes a replayed receipt count once.`,
        params: purchaseOrderParamsSchema,
        headers: idempotentWriteHeadersSchema,
        body: receiptSchema,
        response: { 200: receiptResponseSchema, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      return sendCatalogueWrite(
        { request, reply },
        { idempotency: [request.params.poId, request.body] },
        async (w) => {
          const got = await receiveAgainst(w, request.params.poId, request.body);
          const { order } = await findOrder(w.trx, w.catalogueId, got.poId);
          const over = got.overReceived.map(
            (line) => `${line.name} (${line.received} of ${line.ordered})`,
          );
          const message =
            over.length > 0 ? PO.receivedOver(got.units, over) : PO.received(got.units);
          const overReceived = got.overReceived.map(({ productId, ordered, received }) => ({
            productId,
            ordered,
            received,
          }));
          return purchasingOutcome(
            { status: 200, body: { message, purchaseOrder: order, overReceived } },
            'purchase_order.received',
            {
              data: {
                purchaseOrder: named({ id: got.poId, number: got.number }),
                units: got.units,
                locationId: request.body.locationId,
                lines: request.body.lines,
                overReceived,
              },
            },
            got.productIds,
          );
        },
      );
    },
  );
});

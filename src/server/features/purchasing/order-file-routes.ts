import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotentWriteHeadersSchema } from '../../../shared/schemas/idempotency.js';
import {
  PO,
  purchaseOrderParamsSchema,
  purchaseOrderSavedSchema,
} from '../../../shared/schemas/purchasing/purchase-orders.js';
import { currentSession } from '../../http/authenticate.js';
import { COSTLY_WORK_NOTE, costlyTurn } from '../../http/costly-work.js';
import { bulkLimit } from '../../http/rate-limits.js';
import { errorResponses, rateLimit } from '../../http/route-options.js';
import { csvStream } from '../catalogue-ops/index.js';
import { currentCatalogue } from '../catalogues/index.js';
import { sendCatalogueWrite } from '../writes/index.js';
import { named, purchasingOutcome } from './outcome.js';
import { ORDER_CSV_HEADER, orderFile } from './order-files.js';
import { pdfBytes, queueOrderMail, refuseUnsendable } from './order-send.js';
import { findOrder } from './purchase-orders.js';
import { logCutShort, sendFile } from '../../http/file-replies.js';
import { named as namedPlugin } from '../../http/plugin-name.js';

const csvFile = {
  description: "The order's lines, a CSV attachment",
  content: { 'text/csv': { schema: z.unknown().describe('UTF-8 with a BOM, CRLF') } },
};
const pdfFile = {
  description: 'The purchase order, a PDF shown in the browser',
  content: { 'application/pdf': { schema: z.unknown().describe('A PDF document') } },
};

/** The PDF code (pdfkit and the label fonts) loads on the first order printed. */
const loadOrderPdf = () => import('./order-pdf.js');

/**
 * A purchase order on paper, in a spreadsheet and in the supplier's mailbox: the PDF a supplier
 * receives, its lines as CSV (every member may download them, like every read of purchasing),
 * and the mail of the PDF to the supplier (editors and above).
 */
export const purchaseOrderFileRoutes = namedPlugin('order-file-routes', async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { rateLimits } = app;
  const config = {
    ...rateLimit(rateLimits, bulkLimit(rateLimits)),
    catalogueAction: 'read',
  } as const;
  const tags = ['purchasing'];

  app.get(
    '/:poId.pdf',
    {
      config,
      preHandler: costlyTurn,
      schema: {
        operationId: 'printPurchaseOrder',
        tags,
        summary: 'A purchase order as a PDF',
        description: `A4: the catalogue's name (who orders), the order's number, date and expected date, the supplier's name and contact, notes, then one row per line (the supplier's SKU, the product and its SKU, the quantity, the unit cost, the line's total) and the order's total. The same PDF \`send\` mails. ${COSTLY_WORK_NOTE}`,
        params: purchaseOrderParamsSchema,
        response: { 200: pdfFile, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { sheet, order } = await orderFile(
        app.db,
        currentCatalogue(request).id,
        request.params.poId,
      );
      const { orderPdf } = await loadOrderPdf();
      const pdf = orderPdf(sheet, logCutShort(request, 'Purchase order PDF'));
      return sendFile(reply, 'pdf', `stockroom-${order.number}.pdf`, pdf);
    },
  );

  app.get(
    '/:poId.csv',
    {
      config,
      schema: {
        operationId: 'exportPurchaseOrderCsv',
        tags,
        summary: "A purchase order's lines as CSV",
        description: `RFC 4180, UTF-8 with a BOM, one record per line in the order's order: \`${ORDER_CSV_HEADER.join(',')}\`; money in dollars with two decimals, \`lineTotal\` = quantity × unit cost, exact. Formula-like cells are neutralized.`,
        params: purchaseOrderParamsSchema,
        response: { 200: csvFile, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { order, records } = await orderFile(
        app.db,
        currentCatalogue(request).id,
        request.params.poId,
      );
      return sendFile(
        reply,
        'csv',
        `stockroom-${order.number}.csv`,
        csvStream(ORDER_CSV_HEADER, [records]),
      );
    },
  );

  app.post(
    '/:poId/send',
    {
      config: { ...config, catalogueAction: 'managePurchasing' },
      preHandler: costlyTurn,
      schema: {
        operationId: 'sendPurchaseOrder',
        tags,
        summary: 'E-mail a purchase order to its supplier, its PDF attached',
        description: `Takes no body. Queues one mail to the supplier's address through the outbox, the order's PDF (as \`.pdf\` gives it) attached and stored with the mail, so a retried delivery sends the same bytes; sets \`sentAt\`. The mail counts in the address's mail budget (one a minute, five an hour): beyond, 429 with the seconds to wait and \`Retry-After\`, and nothing is queued. Only an ordered or part-received order, once: 409 \`${PO.notSendable}\` or \`${PO.alreadySent}\`; a supplier without an address: 422 \`${PO.noSupplierEmail}\`. An Idempotency-Key makes a replay answer the same without a second mail. ${COSTLY_WORK_NOTE}`,
        params: purchaseOrderParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: purchaseOrderSavedSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const catalogue = currentCatalogue(request);
      const { user } = currentSession(request);
      const { poId } = request.params;
      // Refused at once, before a PDF is drawn; checked again under the order's lock.
      const { order, sheet } = await orderFile(app.db, catalogue.id, poId);
      const keyed = request.headers['idempotency-key'] !== undefined;
      if (!keyed) refuseUnsendable(order, sheet.supplier.email);
      const { orderPdf } = await loadOrderPdf();
      const pdf = await pdfBytes(
        orderPdf(sheet, (error) => request.log.error({ err: error }, 'Purchase order PDF failed')),
      );
      return sendCatalogueWrite({ request, reply }, { idempotency: [poId] }, async (w) => {
        const sent = await queueOrderMail(w, {
          outbox: app.outbox,
          poId,
          sheet,
          pdf,
          sender: user,
        });
        const { order: now } = await findOrder(w.trx, w.catalogueId, sent.id);
        return {
          ...purchasingOutcome(
            { status: 200, body: { message: PO.sent, purchaseOrder: now } },
            'purchase_order.sent',
            { data: { purchaseOrder: named(sent), to: sent.to } },
          ),
          afterCommit: async () => app.outbox.wake(),
        };
      });
    },
  );
});

import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import {
  PO,
  type PurchaseOrderStatus,
} from '../../../shared/schemas/purchasing/purchase-orders.js';
import { HttpError } from '../../lib/http-error.js';
import { templates } from '../../infra/mail/templates.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { countedRequests, fitsMailBudget } from '../accounts/index.js';
import type { CatalogueWrite } from '../writes/index.js';
import { lockOrder, conflict } from './purchase-orders.js';
import { dollarsText, lineTotalCents, type OrderSheet } from './order-pdf.js';

const unprocessable = (message: string) => new HttpError(422, message);
/** The statuses an order may be sent in: what was ordered, received in part or not yet. */
const isSendable = (status: PurchaseOrderStatus) =>
  status === 'ordered' || status === 'partially_received';

/** Why an order cannot be sent (409, 422), checked before its PDF is drawn and again in the write. */
export function refuseUnsendable(
  order: { status: PurchaseOrderStatus; sentAt: string | number | null },
  email: string | null,
) {
  if (!isSendable(order.status)) throw conflict(PO.notSendable);
  if (order.sentAt !== null) throw conflict(PO.alreadySent);
  if (!email) throw unprocessable(PO.noSupplierEmail);
}

/** A PDF stream read to its end. */
export async function pdfBytes(pdf: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The seconds until the address's mail budget takes one more: the first moment, a minute or an
 * hour after one of the mails it counted, that fits.
 */
function secondsUntilRoom(counted: number[], now: number): number {
  const candidates = counted
    .flatMap((at) => [at + 60_000, at + 3_600_000])
    .filter((at) => at > now)
    .sort((a, b) => a - b);
  const at = candidates.find((when) => fitsMailBudget(counted, when)) ?? now + 3_600_000;
  return Math.max(1, Math.ceil((at - now) / 1000));
}

interface Sending {
  outbox: Outbox;
  poId: string;
  sheet: OrderSheet;
  pdf: Buffer;
  sender: { name: string; email: string };
}

/**
 * Queues the order's mail to its supplier in the write's transaction, its PDF attached, counted in
 * the address's mail budget (`purchase_order`) as it is queued: the order's row is locked and
 * checked again (ordered, not sent yet, an address), the address is locked on PostgreSQL so that
 * two sends to it count in turn (SQLite writes one at a time), and the order's `sent_at` is set.
 * Over budget: 429 with the seconds to wait, and nothing is queued.
 */
export async function queueOrderMail(w: CatalogueWrite, sending: Sending) {
  const { trx, now } = w;
  const locked = await lockOrder(w, sending.poId);
  const current = await trx
    .selectFrom('purchase_orders as po')
    .innerJoin('suppliers as s', 's.id', 'po.supplier_id')
    .select(['po.sent_at', 's.email'])
    .where('po.id', '=', locked.id)
    .executeTakeFirstOrThrow();
  refuseUnsendable({ status: locked.status, sentAt: current.sent_at }, current.email);
  const to = current.email!.toLowerCase();
  if (w.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`purchase-order-mail:${to}`}))`.execute(trx);
  }
  const counted = await countedRequests(trx, to, 'purchase_order', now);
  if (!fitsMailBudget(counted, now)) {
    const seconds = secondsUntilRoom(counted, now);
    throw new HttpError(429, PO.mailBudget(seconds), { 'retry-after': String(seconds) });
  }
  const { sheet } = sending;
  const units = sheet.lines.reduce((sum, line) => sum + BigInt(line.quantity), 0n);
  const total = sheet.lines.reduce((sum, line) => sum + lineTotalCents(line), 0n);
  const mail = templates.purchaseOrder(to, {
    buyer: sheet.buyer,
    supplier: sheet.supplier.name,
    number: sheet.number,
    lines: sheet.lines.length,
    units: units.toLocaleString('en-US'),
    total: dollarsText(total),
    expected: sheet.expected,
    sender: sending.sender.name,
    senderEmail: sending.sender.email,
  });
  await sending.outbox.enqueueCounted(
    trx,
    {
      ...mail,
      attachments: [
        {
          filename: `${sheet.number}.pdf`,
          contentType: 'application/pdf',
          content: sending.pdf,
        },
      ],
    },
    'purchase_order',
  );
  await trx
    .updateTable('purchase_orders')
    .set({ sent_at: now, updated_at: now })
    .where('id', '=', locked.id)
    .execute();
  return { id: locked.id, number: locked.number, to };
}

import { afterAll, describe, expect, it } from 'vitest';
import { PO, type PurchaseOrder } from '../../../src/shared/schemas/purchasing/purchase-orders.js';
import type { Supplier } from '../../../src/shared/schemas/purchasing/suppliers.js';
import { TestSmtpServer } from '../../support/smtp.js';
import { build } from '../support/build.js';
import { pdfText } from '../support/printed-labels.js';
import { accounts, userRow } from '../support/accounts.js';
import { SmtpInbox } from '../support/inbox.js';
import { api, createIn, newCatalogue, productOf, type Member } from '../catalogues/support.js';

const smtp = await new TestSmtpServer().start();
afterAll(() => smtp.stop());
const server = await build({ env: { SMTP_URL: smtp.url } });
const db = server.database.db;
const steps = accounts(server, new SmtpInbox(server, smtp));
/** A signed-in user, their code read from the loopback server's mail. */
async function member(): Promise<Member> {
  const user = await steps.signedIn();
  return { ...user, id: (await userRow(server, user.email))!.id };
}

const send = (who: Member, base: string, id: string, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'POST',
    url: `${base}/purchase-orders/${id}/send`,
    headers: { ...who.headers, ...headers },
  });

let supplierCount = 0;
/** A shared catalogue, a supplier (with `email`), and an order of two lines in `status`. */
async function setUp(email: string | null, ordered = true) {
  const owner = await member();
  const catalogue = await newCatalogue(server, owner, 'Harbor Hardware');
  const base = `/api/catalogues/${catalogue.id}`;
  supplierCount += 1;
  const made = await api(server, owner, 'POST', `${base}/suppliers`, {
    name: `Acme ${supplierCount}`,
    ...(email ? { email } : {}),
  });
  const supplier = (made.json() as { supplier: Supplier }).supplier;
  const cup = productOf(await createIn(server, owner, catalogue.id, { name: 'Teacup' }));
  const jug = productOf(await createIn(server, owner, catalogue.id, { name: 'Jug' }));
  const order = async () => {
    const res = await api(server, owner, 'POST', `${base}/purchase-orders`, {
      supplierId: supplier.id,
      lines: [
        { productId: cup.id, quantity: 12, unitCost: 2.35 },
        { productId: jug.id, quantity: 4, unitCost: 10.05 },
      ],
    });
    const made = (res.json() as { purchaseOrder: PurchaseOrder }).purchaseOrder;
    if (ordered) {
      const moved = await api(server, owner, 'PATCH', `${base}/purchase-orders/${made.id}`, {
        status: 'ordered',
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    return made;
  };
  return { owner, base, supplier, order };
}

const countedFor = async (to: string) =>
  (
    await db
      .selectFrom('outbox')
      .select('id')
      .where('recipient', '=', to)
      .where('purpose', '=', 'purchase_order')
      .where('counted_at', 'is not', null)
      .execute()
  ).length;

describe('sending a purchase order to its supplier', () => {
  it('mails the PDF once, counted once, and says so in the activity', async () => {
    const to = 'orders@acme-one.test';
    const { owner, base, order } = await setUp(to);
    const po = await order();
    const res = await send(owner, base, po.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { message: string; purchaseOrder: PurchaseOrder };
    expect(body.message).toBe(PO.sent);
    expect(body.purchaseOrder.sentAt).toBe(new Date(server.clock.now()).toISOString());
    expect(body.purchaseOrder.status).toBe('ordered');

    await server.app.outbox.deliverDue();
    await server.app.outbox.deliverDue();
    const mails = smtp.mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Purchase order PO-0001');
    expect(mails[0]!.text).toContain('$68.40');
    expect(mails[0]!.attachments).toHaveLength(1);
    const [pdf] = mails[0]!.attachments;
    expect(pdf).toMatchObject({ filename: 'PO-0001.pdf', contentType: 'application/pdf' });
    const text = (await pdfText(Buffer.from(pdf!.base64, 'base64'))).replace(/\s+/g, ' ');
    expect(text).toContain('Harbor Hardware');
    expect(text).toContain('Purchase order PO-0001');
    expect(text).toMatch(/12 \$2\.35 \$28\.20/);
    expect(text).toMatch(/4 \$10\.05 \$40\.20/);
    expect(text).toMatch(/Total 16 \$68\.40/);
    // Sent, the mail's files went with its body.
    expect(await db.selectFrom('outbox_attachments').selectAll().execute()).toEqual([]);
    expect(await countedFor(to)).toBe(1);

    // Once: a second send is refused, and no second mail goes.
    const again = await send(owner, base, po.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PO.alreadySent);
    await server.app.outbox.deliverDue();
    expect(smtp.mailsTo(to)).toHaveLength(1);
    expect(await countedFor(to)).toBe(1);

    const entries = await db
      .selectFrom('activity_entries')
      .select(['kind', 'data'])
      .where('kind', '=', 'purchase_order.sent')
      .execute();
    const entry = entries.find((each) => each.data.includes(po.id));
    expect(JSON.parse(entry!.data)).toMatchObject({
      purchaseOrder: { id: po.id, number: 'PO-0001' },
      to,
    });
  });

  it('refuses a draft (409), a supplier without an address (422), and a stranger (404)', async () => {
    const drafts = await setUp('orders@acme-two.test', false);
    const draft = await drafts.order();
    const refused = await send(drafts.owner, drafts.base, draft.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PO.notSendable);

    const silent = await setUp(null);
    const po = await silent.order();
    const noAddress = await send(silent.owner, silent.base, po.id);
    expect(noAddress.statusCode).toBe(422);
    expect(noAddress.json().message).toBe(PO.noSupplierEmail);

    const stranger = await member();
    expect((await send(stranger, silent.base, po.id)).statusCode).toBe(404);
    // Nothing was queued, nothing changed.
    expect(await countedFor('orders@acme-two.test')).toBe(0);
    const read = await api(server, silent.owner, 'GET', `${silent.base}/purchase-orders/${po.id}`);
    expect(read.json().purchaseOrder.sentAt).toBeNull();
  });

  it("keeps to the address's mail budget, and a replay under one key mails once", async () => {
    const to = 'orders@acme-three.test';
    const { owner, base, order } = await setUp(to);
    const first = await order();
    const second = await order();
    const key = { 'idempotency-key': `send-${first.id}` };
    expect((await send(owner, base, first.id, key)).statusCode).toBe(200);
    const replay = await send(owner, base, first.id, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().message).toBe(PO.sent);

    // A second order to the same address within the minute waits.
    const soon = await send(owner, base, second.id);
    expect(soon.statusCode).toBe(429);
    expect(soon.headers['retry-after']).toBe('60');
    expect(soon.json().message).toBe(PO.mailBudget(60));
    server.clock.advance(61_000);
    expect((await send(owner, base, second.id)).statusCode).toBe(200);
    await server.app.outbox.deliverDue();
    expect(smtp.mailsTo(to).map((mail) => mail.subject)).toEqual([
      'Purchase order PO-0001',
      'Purchase order PO-0002',
    ]);
    expect(await countedFor(to)).toBe(2);
  });

  it('sends the bytes it queued when a delivery is retried', async () => {
    const to = 'orders@acme-four.test';
    const { owner, base, order } = await setUp(to);
    const po = await order();
    expect((await send(owner, base, po.id)).statusCode).toBe(200);
    const [stored] = await db.selectFrom('outbox_attachments').select('content').execute();
    const port = smtp.port;
    await smtp.stop();
    await server.app.outbox.deliverDue();
    expect(smtp.mailsTo(to)).toHaveLength(0);
    await smtp.start(port);
    server.clock.advance(5_000);
    await server.app.outbox.deliverDue();
    const mails = smtp.mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(
      Buffer.from(mails[0]!.attachments[0]!.base64, 'base64').equals(Buffer.from(stored!.content)),
    ).toBe(true);
  });
});

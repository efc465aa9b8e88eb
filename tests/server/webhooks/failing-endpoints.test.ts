import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../../src/shared/schemas/webhooks/webhooks.js';
import { systemResolver } from '../../../src/server/features/webhooks/addresses.js';
import {
  attemptDelivery,
  FAILURES_TO_DISABLE,
  timeoutFor,
  type DeliveryRow,
} from '../../../src/server/features/webhooks/attempt.js';
import type { Job } from '../../../src/server/infra/runner/queue.js';
import { build } from '../support/build.js';
import { LocalInbox } from '../support/inbox.js';
import { api, createIn, member, newCatalogue } from '../catalogues/support.js';
import { addWebhook, receiver, webhooksUrl } from './support.js';

const ALLOW = { WEBHOOKS_ALLOW_PRIVATE_NETWORK: 'true' };
const HOUR = 3_600_000;

describe('an endpoint that keeps failing', async () => {
  const server = await build({ env: ALLOW });
  const owner = await member(server, 'Olive Owner');
  const catalogue = await newCatalogue(server, owner, 'Busy');
  const inbox = new LocalInbox(server);
  const failuresOf = async (webhookId: string) =>
    (
      await server.database.db
        .selectFrom('webhooks')
        .select(['failures', 'enabled'])
        .where('id', '=', webhookId)
        .executeTakeFirstOrThrow()
    ).failures;

  it('gets less time for each attempt: 10 s while it answers, down to 2 s', () => {
    expect([0, 1, 2, 3, 4, 10].map((failures) => timeoutFor(failures))).toEqual([
      10_000, 10_000, 5_000, 2_500, 2_000, 2_000,
    ]);
    // A limit already under the floor stays as it is.
    expect(timeoutFor(5, 300)).toBe(300);
  });

  it('counts its failures in a row; a success starts again from none', async () => {
    const hook = await receiver((count) => (count <= 2 ? 500 : 204));
    const { webhook } = await addWebhook(server, owner, catalogue.id, hook.url);
    await createIn(server, owner, catalogue.id, { name: 'One' });
    await createIn(server, owner, catalogue.id, { name: 'Two' });
    await server.app.webhookDeliverer.deliverDue();
    expect(await failuresOf(webhook.id)).toBe(2);
    server.clock.advance(5_000);
    await server.app.webhookDeliverer.deliverDue();
    expect(await failuresOf(webhook.id)).toBe(0);
    await api(server, owner, 'DELETE', `${webhooksUrl(catalogue.id)}/${webhook.id}`);
  });

  it(`is disabled after ${FAILURES_TO_DISABLE} failures in a row over an hour, its admins told`, async () => {
    const hook = await receiver(() => 503);
    const { webhook } = await addWebhook(server, owner, catalogue.id, hook.url);
    for (let i = 0; i < FAILURES_TO_DISABLE; i += 1) {
      await createIn(server, owner, catalogue.id, { name: `Busy ${i}` });
    }
    await server.app.webhookDeliverer.deliverDue();
    expect(await failuresOf(webhook.id)).toBe(FAILURES_TO_DISABLE);
    // Not yet: they all failed within a moment (a receiver restarting, say).
    const read = async () =>
      (
        (await api(server, owner, 'GET', `${webhooksUrl(catalogue.id)}/${webhook.id}`)).json() as {
          webhook: Webhook;
        }
      ).webhook;
    expect(await read()).toMatchObject({ enabled: true });

    server.clock.advance(HOUR);
    await server.app.webhookDeliverer.deliverDue();
    const disabled = await read();
    expect(disabled).toMatchObject({ enabled: false, lastStatus: 503 });
    expect(disabled.disabledAt).not.toBeNull();
    // The next attempt disabled it (another may have been in flight); the rest ended with it.
    expect(hook.received.length - FAILURES_TO_DISABLE).toBeOneOf([1, 2]);
    const pending = await server.database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhook.id)
      .where('status', '=', 'pending')
      .execute();
    expect(pending).toEqual([]);
    await inbox.fetch();
    const told = inbox.mailsTo(owner.email).filter((mail) => mail.text.includes(hook.url));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('100 attempts in a row');

    // Enabled again, it starts from no failures.
    await api(server, owner, 'PATCH', `${webhooksUrl(catalogue.id)}/${webhook.id}`, {
      enabled: true,
    });
    expect(await failuresOf(webhook.id)).toBe(0);
  });

  /**
   * The attempt that switches the endpoint off settles its delivery too, which frees its slot of
   * the endpoint's bound: another worker (of any instance) may claim the next delivery at once.
   * Here it does, inside the settle step, which the first attempt awaits: the interleaving a
   * PostgreSQL run met once, every time on both engines. Switched off first, the endpoint has no
   * pending delivery left to claim by then; settled first, the next one found it enabled and sent.
   */
  it('is sent nothing more once an attempt decided to disable it', async () => {
    const racing = await newCatalogue(server, owner, 'Racing');
    const hook = await receiver(() => 503);
    const { webhook } = await addWebhook(server, owner, racing.id, hook.url);
    await createIn(server, owner, racing.id, { name: 'First' });
    await createIn(server, owner, racing.id, { name: 'Second' });
    const { db } = server.database;
    const now = server.clock.now();
    // One failure short of the bound, failing for an hour: the next failure disables it.
    await db
      .updateTable('webhooks')
      .set({ failures: FAILURES_TO_DISABLE - 1, failing_since: now - HOUR })
      .where('id', '=', webhook.id)
      .execute();
    const [first] = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhook.id)
      .orderBy('id')
      .execute();
    // Claimed as the queue claims: a lease, one attempt more.
    const row = await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ locked_until: now + 60_000, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', first!.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    let claimedMeanwhile = -1;
    const settle = async (values: Partial<DeliveryRow>) => {
      await db
        .updateTable('webhook_deliveries')
        .set({ ...values, locked_until: null })
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .execute();
      // Its slot is free: another worker claims and attempts what is due, before it goes on.
      claimedMeanwhile = await server.app.webhookDeliverer.deliverDue();
    };
    const job: Job<DeliveryRow> = {
      row,
      finish: settle,
      retryAt: (at, values = {}) => settle({ ...values, next_attempt_at: at }),
      release: () => settle({ next_attempt_at: server.clock.now() }),
    };
    const deps = {
      db,
      clock: server.clock,
      outbox: server.app.outbox,
      publicUrl: server.config.publicUrl,
      log: server.app.log,
      policy: { allowPrivateNetwork: true, resolve: systemResolver },
    };
    await attemptDelivery(deps, job, new AbortController().signal);

    expect(hook.received).toHaveLength(1);
    expect(claimedMeanwhile).toBe(0);
    const settled = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'last_error'])
      .where('webhook_id', '=', webhook.id)
      .execute();
    expect(settled).toHaveLength(2);
    for (const { id, status, last_error } of settled) {
      expect(status).toBe('failed');
      expect(last_error).toBe(id === row.id ? 'HTTP 503' : 'The endpoint is disabled');
    }
    expect(
      await db
        .selectFrom('webhooks')
        .select('enabled')
        .where('id', '=', webhook.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ enabled: 0 });
  });
});

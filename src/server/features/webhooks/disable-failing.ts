import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../infra/db/handle.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import { templates } from '../../infra/mail/templates.js';
import type { Clock } from '../../lib/clock.js';

/** What switching an endpoint off needs: the database, and the outbox that mails its admins. */
export interface DisableDeps {
  db: DB;
  clock: Clock;
  outbox: Outbox;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * An endpoint kept failing (a delivery for 3 days, or many attempts in a row): unless it answered
 * with a 2xx since `since`, it is switched off and the catalogue's owner and admins are mailed,
 * once (the update that switches it off is the one that mails, on whichever instance).
 */
export async function disableWhenFailing(
  deps: DisableDeps,
  webhookId: string,
  since: number,
  lastError: string,
) {
  const { db, clock, outbox, publicUrl, log } = deps;
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const disabled = await trx
      .updateTable('webhooks')
      .set({ enabled: 0, disabled_at: now, updated_at: now })
      .where('id', '=', webhookId)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', since)]))
      .returning(['url', 'catalogue_id'])
      .executeTakeFirst();
    if (!disabled) return;
    // Its other deliveries would fail the same way: they end with it.
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        next_attempt_at: null,
        locked_until: null,
        last_error: 'The endpoint is disabled',
      })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'pending')
      .execute();
    const catalogue = await trx
      .selectFrom('catalogues')
      .select('name')
      .where('id', '=', disabled.catalogue_id)
      .executeTakeFirst();
    const admins = await trx
      .selectFrom('catalogue_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'u.name'])
      .where('m.catalogue_id', '=', disabled.catalogue_id)
      .where('m.role', 'in', ['owner', 'admin'])
      .execute();
    for (const admin of admins) {
      await outbox.enqueue(
        trx,
        templates.webhookDisabled(publicUrl, admin.email, admin.name, {
          url: disabled.url,
          catalogue: catalogue?.name ?? '',
          catalogueId: disabled.catalogue_id,
          lastError,
        }),
      );
    }
    log.warn({ webhookId }, 'webhook kept failing; disabled');
  });
  outbox.wake();
}

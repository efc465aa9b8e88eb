import { sql } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { Outbox } from '../../infra/mail/outbox.js';
import type { Clock } from '../../lib/clock.js';
import { toReorderRule } from '../products/index.js';
import { lowStockDigestMail, type DigestLine } from './mail.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** The products a digest names at most; its subject still counts them all. */
const DIGEST_LINES_MAX = 200;

export interface DigestSettings {
  /** The hour of the day (UTC) from which the day's digests go. */
  hourUtc: number;
  publicUrl: string;
}

/** A UTC day as its claim keys it: YYYY-MM-DD. */
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The daily low-stock digest: to each user who opted in, at most once a UTC day, the products of
 * their catalogues that crossed to or below their reorder point since the user's last digest and
 * are still to reorder; nothing when there are none. Each digest is claimed by a (user, day) row in
 * the transaction that queues its mail: every instance may run this at once, one claim wins, and a
 * digest that was not committed was neither claimed nor queued.
 */
export class LowStockDigests {
  constructor(
    private readonly db: DB,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly settings: DigestSettings,
  ) {}

  /** One pass: the digests due now. Returns how many this call queued. */
  async run(): Promise<number> {
    const now = this.clock.now();
    if (new Date(now).getUTCHours() < this.settings.hourUtc) return 0;
    const day = utcDay(now);
    const users = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('low_stock_digest', '=', 1)
      .where('confirmed', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('low_stock_digests as sent')
              .select('sent.user_id')
              .whereRef('sent.user_id', '=', 'users.id')
              .where('sent.day', '=', day),
          ),
        ),
      )
      .orderBy('id')
      .execute();
    let queued = 0;
    for (const user of users) {
      if (await this.sendTo(user, day, now)) queued += 1;
    }
    if (queued > 0) this.outbox.wake();
    return queued;
  }

  /** Queues one user's digest of the day, unless it has nothing to say or is claimed already. */
  private async sendTo(
    user: { id: string; name: string; email: string },
    day: string,
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('low_stock_digests')
        .select((eb) => eb.fn.max('sent_at').as('at'))
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      const since = last?.at === null || last?.at === undefined ? -1 : Number(last.at);
      const rows = await crossedSince(trx, user.id, since, now);
      if (rows.length === 0) return false;
      const claim = await trx
        .insertInto('low_stock_digests')
        .values({ user_id: user.id, day, sent_at: now, products: rows.length })
        .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
        .executeTakeFirst();
      // Another instance (or pass) claimed the day first: it sends, this one does not.
      if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const lines: DigestLine[] = rows.slice(0, DIGEST_LINES_MAX).map((row) => ({
        name: row.name,
        stock: Number(row.stock),
        reorderPoint: Number(row.point),
        catalogue: row.catalogue,
        url: productUrl(this.settings.publicUrl, user.id, row.catalogue_id, row.id),
      }));
      await this.outbox.enqueue(
        trx,
        lowStockDigestMail(this.settings.publicUrl, user.email, user.name, lines, rows.length),
      );
      return true;
    });
  }
}

/**
 * The products of every catalogue the user belongs to that crossed their point after `since` (and
 * by `now`) and are still to reorder, by catalogue and name. The crossing index (migration 020)
 * reads a catalogue's crossings since a time.
 */
function crossedSince(trx: DB, userId: string, since: number, now: number) {
  return trx
    .selectFrom('catalogue_members as m')
    .innerJoin('catalogues as c', 'c.id', 'm.catalogue_id')
    .innerJoin('products as p', 'p.catalogue_id', 'm.catalogue_id')
    .select([
      'p.id',
      'p.name',
      'p.stock',
      'c.id as catalogue_id',
      'c.name as catalogue',
      sql<number>`coalesce(p.reorder_point, c.reorder_point)`.as('point'),
    ])
    .where('m.user_id', '=', userId)
    .where(visibleProduct('p'))
    .where('p.reorder_crossed_at', 'is not', null)
    .where('p.reorder_crossed_at', '>', since)
    .where('p.reorder_crossed_at', '<=', now)
    .where(
      toReorderRule(sql.ref('p.stock'), sql.ref('p.reorder_point'), sql.ref('c.reorder_point')),
    )
    .orderBy('c.name')
    .orderBy('c.id')
    .orderBy('p.name_key')
    .orderBy('p.id')
    .execute();
}

/** The product's screen: the personal catalogue's at its old address, another's under it. */
function productUrl(publicUrl: string, userId: string, catalogueId: string, productId: string) {
  const id = encodeURIComponent(productId);
  return catalogueId === userId
    ? `${publicUrl}/details/product/${id}`
    : `${publicUrl}/catalogues/${encodeURIComponent(catalogueId)}/products/${id}`;
}

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  C,
  COUNT_LINES_MAX,
  COUNT_NAME_MAX,
  type CountCreate,
  type CountLineInput,
  type CountStatus,
} from '../../../shared/schemas/counts/counts.js';
import type { DB } from '../../infra/db/handle.js';
import { visibleProduct } from '../../infra/db/visible-products.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import { applyStockDeltas } from '../products/index.js';
import type { CatalogueWrite } from '../writes/index.js';
import type { LineRow, CountRow } from './rows.js';
import { linesQuery } from './reads.js';
import { inScope, lineageOf, scopeKey, uncountedPlaces } from './scope.js';

const conflict = (message: string) => new HttpError(409, message);

/** The count, in the write's transaction; 404 when it is not the catalogue's. */
export async function countOf(w: CatalogueWrite, countId: string): Promise<CountRow> {
  const row = await w.trx
    .selectFrom('counts')
    .selectAll()
    .where('catalogue_id', '=', w.catalogueId)
    .where('id', '=', countId)
    .executeTakeFirst();
  if (!row) throw notFound(C.notFound);
  return row;
}

const ACTIVE: CountStatus[] = ['open', 'review'];

/**
 * The active count a count of this scope would clash with: one of the same scope (a unique index
 * holds it when two writes race), or for a location one above or below it, whose postings would
 * count the same shelves twice. Starting a count and undoing a posting (the count back in review)
 * both ask.
 */
async function activeOverlap(
  w: CatalogueWrite,
  scope: { key: string; locationId: string | null },
): Promise<{ name: string; sameScope: boolean } | undefined> {
  const { trx, catalogueId } = w;
  const same = await trx
    .selectFrom('counts')
    .select('name')
    .where('catalogue_id', '=', catalogueId)
    .where('scope_key', '=', scope.key)
    .where('status', 'in', ACTIVE)
    .executeTakeFirst();
  if (same) return { name: same.name, sameScope: true };
  if (scope.locationId === null) return undefined;
  const busy = await trx
    .selectFrom('counts')
    .select(['name', 'scope_location_id'])
    .where('catalogue_id', '=', catalogueId)
    .where('scope_kind', '=', 'location')
    .where('status', 'in', ACTIVE)
    .execute();
  if (busy.length === 0) return undefined;
  const above = await lineageOf(trx, catalogueId, scope.locationId);
  for (const { name, scope_location_id: other } of busy) {
    const overlaps =
      above.includes(other!) ||
      (await lineageOf(trx, catalogueId, other!)).includes(scope.locationId);
    if (overlaps) return { name, sameScope: false };
  }
  return undefined;
}

/** Starts a count; 409 while another one it would clash with is active (see activeOverlap). */
export async function startCount(
  w: CatalogueWrite,
  body: CountCreate,
  pathOf: (locationId: string) => Promise<string | null>,
): Promise<string> {
  const { trx, catalogueId, now } = w;
  const { scope } = body;
  let name = body.name;
  if (scope.kind === 'location') {
    const path = await pathOf(scope.locationId);
    if (path === null) throw notFound(C.locationNotFound);
    name ??= `Count of ${path}`;
  }
  const key = scopeKey(scope);
  const locationId = scope.kind === 'location' ? scope.locationId : null;
  if (await activeOverlap(w, { key, locationId })) throw conflict(C.scopeBusy);
  name ??= scope.kind === 'tag' ? `Count of tag ${scope.tag}` : 'Count of the whole catalogue';
  const id = randomUUID();
  await trx
    .insertInto('counts')
    .values({
      id,
      catalogue_id: catalogueId,
      name: [...name].slice(0, COUNT_NAME_MAX).join(''),
      scope_kind: scope.kind,
      scope_location_id: scope.kind === 'location' ? scope.locationId : null,
      scope_tag: scope.kind === 'tag' ? scope.tag : null,
      scope_key: key,
      blind: body.blind ? 1 : 0,
      status: 'open',
      created_by: w.actorId,
      created_at: now,
      updated_at: now,
      posted_at: null,
    })
    .execute();
  return id;
}

/**
 * Counts a product at a location: a line's first count takes the quantity there as `expected`;
 * a later one replaces the counted number (or adds to it) and says who counted last. Lines of a
 * count in review may be counted again (a recount). The pipeline's catalogue lock (PostgreSQL)
 * and SQLite's one writer make two counters of one line take turns: each `add` adds up.
 */
export async function countLine(
  w: CatalogueWrite,
  countId: string,
  input: CountLineInput,
): Promise<LineRow> {
  const { trx, catalogueId, actorId, now } = w;
  const count = await countOf(w, countId);
  if (!ACTIVE.includes(count.status)) throw conflict(C.notOpen);
  const product = await trx
    .selectFrom('products')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', input.productId)
    .where(visibleProduct())
    .executeTakeFirst();
  if (!product) throw notFound(C.productNotFound);
  const location = await trx
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', input.locationId)
    .executeTakeFirst();
  if (!location) throw notFound(C.locationNotFound);
  if (!(await inScope(trx, count, input.productId, input.locationId))) {
    throw conflict(C.outOfScope);
  }
  const where = { count_id: countId, product_id: input.productId, location_id: input.locationId };
  const line = await trx
    .selectFrom('count_lines')
    .select('counted')
    .where('count_id', '=', countId)
    .where('product_id', '=', input.productId)
    .where('location_id', '=', input.locationId)
    .executeTakeFirst();
  if (line) {
    const counted = input.add ? line.counted + input.counted : input.counted;
    if (counted > 2_147_483_647) throw new HttpError(400, C.countedInvalid);
    await trx
      .updateTable('count_lines')
      .set({ counted, counted_by: actorId, counted_at: now })
      .where('count_id', '=', where.count_id)
      .where('product_id', '=', where.product_id)
      .where('location_id', '=', where.location_id)
      .execute();
  } else {
    if (Number(count.lines) >= COUNT_LINES_MAX) throw conflict(C.tooManyLines);
    const level = await trx
      .selectFrom('stock_levels')
      .select('quantity')
      .where('product_id', '=', input.productId)
      .where('location_id', '=', input.locationId)
      .executeTakeFirst();
    await trx
      .insertInto('count_lines')
      .values({
        ...where,
        catalogue_id: catalogueId,
        expected: level?.quantity ?? 0,
        counted: input.counted,
        counted_by: actorId,
        counted_at: now,
      })
      .execute();
    await trx
      .updateTable('counts')
      .set((eb) => ({ lines: eb('lines', '+', 1), updated_at: now }))
      .where('id', '=', countId)
      .execute();
  }
  const rows = (await linesQuery(trx, countId, undefined)
    .where('cl.product_id', '=', input.productId)
    .where('cl.location_id', '=', input.locationId)
    .execute()) as LineRow[];
  return rows[0]!;
}

/** Moves an active count on to review or to cancelled; 409 for one posted or cancelled. */
export async function moveCount(w: CatalogueWrite, countId: string, to: 'review' | 'cancelled') {
  const count = await countOf(w, countId);
  if (!ACTIVE.includes(count.status)) throw conflict(C.notActive(count.status));
  await w.trx
    .updateTable('counts')
    .set({ status: to, updated_at: w.now })
    .where('id', '=', countId)
    .execute();
}

/**
 * Posts a count: each line's `counted − expected` added to what its location holds now, so
 * that stock moved while counting stays moved; a decrease the location no longer covers (what
 * was counted has been sold since) stops at 0. With `uncountedAsZero`, the scope's places never
 * counted are counted as 0 first. All of it in the write's one transaction, in a few statements
 * per thousand lines.
 */
export async function postCount(
  w: CatalogueWrite,
  countId: string,
  options: { uncountedAsZero: boolean; subtree: string[] },
) {
  const { trx, now } = w;
  const count = await countOf(w, countId);
  if (!ACTIVE.includes(count.status)) throw conflict(C.notActive(count.status));
  if (options.uncountedAsZero) await countUncountedAsZero(w, count, options.subtree);
  const lines = await trx
    .selectFrom('count_lines')
    .select(['product_id', 'location_id', 'counted', 'expected'])
    .where('count_id', '=', countId)
    .where(sql<boolean>`counted <> expected`)
    .orderBy('product_id')
    .orderBy('location_id')
    .execute();
  const result = await applyStockDeltas(
    w,
    lines.map((line) => ({
      productId: line.product_id,
      locationId: line.location_id,
      delta: line.counted - line.expected,
    })),
    { short: 'cut', reason: 'counted', note: null, countId },
  );
  if (result.outcome === 'above-max') throw conflict(C.tooMuchStock(result.name));
  if (result.outcome !== 'done') throw new Error(`A count's posting cannot be ${result.outcome}`);
  await trx
    .updateTable('counts')
    .set({ status: 'posted', posted_at: now, updated_at: now })
    .where('id', '=', countId)
    .execute();
  return { count, applied: result.applied };
}

async function countUncountedAsZero(w: CatalogueWrite, count: CountRow, subtree: string[]) {
  const { trx, catalogueId, actorId, now } = w;
  await sql`insert into count_lines
      (count_id, product_id, location_id, catalogue_id, expected, counted, counted_by, counted_at)
    select ${count.id}, sl.product_id, sl.location_id, ${catalogueId}, sl.quantity, 0,
      ${actorId}, ${now}
    from ${uncountedPlaces(count, subtree)}`.execute(trx);
  const { total } = await trx
    .selectFrom('count_lines')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('count_id', '=', count.id)
    .executeTakeFirstOrThrow();
  if (Number(total) > COUNT_LINES_MAX) throw conflict(C.tooManyLines);
  await trx
    .updateTable('counts')
    .set({ lines: Number(total) })
    .where('id', '=', count.id)
    .execute();
}

/**
 * Takes a posting back: every movement it made, the other way, refused whole (409) when a
 * location no longer holds what the posting added. The count goes back to review, unless a count
 * it would clash with was started since (the rule a start follows: activeOverlap).
 */
export async function reverseCountPosting(
  w: CatalogueWrite,
  countId: string,
): Promise<
  | { outcome: 'done'; products: number }
  | { outcome: 'short' | 'busy' | 'overlaps' | 'missing' | 'moved'; name?: string }
> {
  const { trx, catalogueId, now } = w;
  const count = await trx
    .selectFrom('counts')
    .selectAll()
    .where('catalogue_id', '=', catalogueId)
    .where('id', '=', countId)
    .executeTakeFirst();
  if (!count || count.status !== 'posted') return { outcome: 'missing' };
  const busy = await activeOverlap(w, {
    key: count.scope_key,
    locationId: count.scope_location_id,
  });
  if (busy?.sameScope) return { outcome: 'busy' };
  if (busy) return { outcome: 'overlaps', name: busy.name };
  const movements = await postedMovements(trx, countId);
  const result = await applyStockDeltas(
    w,
    movements.map((m) => ({
      productId: m.product_id,
      locationId: m.location_id!,
      delta: -m.delta,
    })),
    { short: 'refuse', reason: null, note: 'Undo', countId },
  );
  if (result.outcome === 'short') return { outcome: 'short', name: result.name };
  if (result.outcome !== 'done') return { outcome: 'moved' };
  await trx
    .updateTable('counts')
    .set({ status: 'review', posted_at: null, updated_at: now })
    .where('id', '=', countId)
    .execute();
  return { outcome: 'done', products: new Set(result.applied.map((a) => a.productId)).size };
}

/**
 * The movements a count's last posting made, down the partial index of movements of counts: those
 * after its last undo's (a count undone goes back to review, and may be posted again).
 */
async function postedMovements(trx: DB, countId: string) {
  const undone = await trx
    .selectFrom('stock_movements')
    .select((eb) => eb.fn.max('id').as('last'))
    .where('count_id', '=', countId)
    .where('reason', 'is', null)
    .executeTakeFirst();
  return trx
    .selectFrom('stock_movements')
    .select(['product_id', 'location_id', 'delta'])
    .where('count_id', '=', countId)
    .where('reason', '=', 'counted')
    .where('id', '>', Number(undone?.last ?? 0))
    .orderBy('id')
    .execute();
}

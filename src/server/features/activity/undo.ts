import { ACTIVITY_MESSAGES as A, UNDO_WINDOW_MS } from '../../../shared/activity.js';
import { can, roleCannot } from '../../../shared/catalogue-roles.js';
import type { ActivityEntry } from '../../../shared/schemas/activity.js';
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { DB } from '../../infra/db/handle.js';
import type { CurrentCatalogue } from '../catalogues/index.js';
import type { PictureChange } from '../products/index.js';
import { reverseCountPosting } from '../counts/index.js';
import { moveStock, restoreDeleted, revertEdit, transferStock } from '../products/index.js';
import {
  writeCatalogue,
  type CatalogueWrite,
  type LiveEvent,
  type WriteOutcome,
} from '../writes/index.js';
import { entriesQuery, notUndoable, parts, toEntry, undoAction, type EntryRow } from './entries.js';
import { announceActivity, insertActivity } from './record.js';

const conflict = (message: string) => new HttpError(409, message);

/** Whether an error is the unique index on `undoes` refusing a second undo of one entry. */
function isSecondUndo(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && String(constraint).includes('undoes')) return true;
    if (String(code).startsWith('SQLITE_CONSTRAINT') && current.message.includes('undoes')) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

/**
 * Undoes one entry of a catalogue: checks what can be checked before writing (the kind, the
 * caller's role, whether it was undone already, its age), then in one transaction records the
 * undo entry first and reverses the change. The entry's unique `undoes` decides between undos
 * racing each other: the second insert fails (on PostgreSQL once the first commits) and its
 * transaction, reversal included, rolls back into a 409.
 */
export async function undoEntry(
  app: FastifyInstance,
  catalogue: CurrentCatalogue,
  entryId: number,
): Promise<ActivityEntry> {
  const now = app.clock.now();
  const found = (await entriesQuery(
    app.db,
    catalogue.id,
    { id: entryId },
    1,
  ).executeTakeFirst()) as EntryRow | undefined;
  if (!found) throw notFound(A.entryNotFound);
  if (notUndoable(found)) throw conflict(A.cannotUndo);
  const action = undoAction(found.kind);
  if (!can(catalogue.role, action)) throw new HttpError(403, roleCannot(catalogue.role, action));
  if (found.undone_by !== null) throw conflict(A.alreadyUndone);
  if (now - Number(found.created_at) >= UNDO_WINDOW_MS) throw conflict(A.tooOld);

  const reverse =
    found.kind === 'stock.transferred'
      ? reverseTransfer
      : found.kind === 'count.posted'
        ? reverseCount
        : reverseProductChange;
  try {
    const { answer } = await writeCatalogue(
      { db: app.db, dialect: app.database.dialect, activity: app.activity.record },
      catalogue,
      now,
      async (w): Promise<WriteOutcome<{ status: 200; body: ActivityEntry }>> => {
        const data: Record<string, unknown> = { undoes: String(found.id), kind: found.kind };
        const product = found.product_id
          ? { id: found.product_id, name: found.product_name ?? '' }
          : undefined;
        const details = { product, data, undoes: Number(found.id) };
        // Written first: its unique `undoes` refuses a second undo before anything is reversed.
        const undoId = await insertActivity(w.trx, catalogue, 'undo', details, now);
        const { live, movementId } = await reverse(app, w, found);
        if (movementId !== undefined) {
          data.movementId = String(movementId);
          await w.trx
            .updateTable('activity_entries')
            .set({ data: JSON.stringify(data) })
            .where('id', '=', undoId)
            .execute();
        }
        // Its webhooks once it is whole: they carry the movement that reversed the change.
        await announceActivity(w.trx, catalogue, 'undo', details, now);
        const row = (await entriesQuery(
          w.trx,
          catalogue.id,
          { id: undoId },
          1,
        ).executeTakeFirstOrThrow()) as EntryRow;
        return { answer: { status: 200, body: toEntry(row, catalogue.role, now) }, live };
      },
    );
    return answer.body;
  } catch (error) {
    if (isSecondUndo(error)) throw conflict(A.alreadyUndone);
    throw error;
  }
}

/** How an entry's change was reversed: the live event that tells other screens, the movement. */
interface Reversal {
  live: LiveEvent;
  movementId?: number;
}

/**
 * Reverses a change of one product: a stock change at the location it changed, an edit, or a
 * delete (from the snapshot its entry kept). Answers with the same live event as the kind of
 * change reversed, so that other screens follow.
 */
async function reverseProductChange(
  app: FastifyInstance,
  w: CatalogueWrite,
  found: EntryRow,
): Promise<Reversal> {
  const productId = found.product_id!;
  const stored = JSON.parse(found.data) as Record<string, unknown>;
  let result;
  if (found.kind === 'stock.moved') {
    // At the location it changed (entries from before locations name none: the default).
    const at = typeof stored.locationId === 'string' ? stored.locationId : undefined;
    result = await moveStock(w, productId, -Number(stored.delta), at);
  } else if (found.kind === 'product.updated') {
    const changes = parts(found.data).changes ?? {};
    const kept = (await snapshotOf(w.trx, Number(found.id))) as { picture?: PictureChange };
    result = await revertEdit(w, productId, changes, kept?.picture);
  } else {
    const snapshot = (await snapshotOf(w.trx, Number(found.id))) as Parameters<
      typeof restoreDeleted
    >[1];
    result = await restoreDeleted(w, snapshot);
  }
  switch (result.outcome) {
    case 'missing':
      throw conflict(A.productGone);
    case 'below-zero':
      throw conflict(A.belowZero);
    case 'changed':
      throw conflict(A.changedSince(result.fields));
    case 'taken':
      throw conflict(A.codeTaken(result.code, result.value));
    case 'located':
      throw conflict(A.codeIsLocation(result.code, result.value));
    case 'done':
      break;
  }
  const shown = app.products.present.product(result.row);
  const { stock, updatedAt } = shown;
  const live: LiveEvent =
    found.kind === 'stock.moved'
      ? { kind: 'stock.changed', data: { id: productId, stock, updatedAt } }
      : found.kind === 'product.deleted'
        ? { kind: 'product.created', data: { product: shown } }
        : { kind: 'product.updated', data: { product: shown } };
  return { live, movementId: 'movementId' in result ? result.movementId : undefined };
}

/**
 * Reverses a move of stock with the move back, every line from where it went to where it came
 * from, all of them or none: refused when the stock moved has moved on (or a product or location
 * went).
 */
async function reverseTransfer(
  _app: FastifyInstance,
  w: CatalogueWrite,
  found: EntryRow,
): Promise<Reversal> {
  const stored = JSON.parse(found.data) as {
    lines: { productId: string; from: string; to: string; quantity: number }[];
  };
  const back = stored.lines.map((line) => ({ ...line, from: line.to, to: line.from }));
  const result = await transferStock(w, back);
  if (result.outcome !== 'done') throw conflict(A.movedSince);
  const ids = result.products.map(({ id }) => id);
  return { live: { kind: 'stock.transferred', data: { ids } } };
}

/**
 * Reverses a count's posting, every movement it made or none: refused when a location no longer
 * holds what the posting added, or when another count of its scope, or of a location above or
 * below its location, was started since (the count goes back to review).
 */
async function reverseCount(
  _app: FastifyInstance,
  w: CatalogueWrite,
  found: EntryRow,
): Promise<Reversal> {
  const { countId } = JSON.parse(found.data) as { countId: string };
  const result = await reverseCountPosting(w, countId);
  switch (result.outcome) {
    case 'short':
      throw conflict(A.belowZero);
    case 'busy':
      throw conflict(A.countScopeBusy);
    case 'overlaps':
      throw conflict(A.countOverlaps(result.name!));
    case 'missing':
    case 'moved':
      throw conflict(A.movedSince);
    case 'done':
      return {
        live: { kind: 'count.updated', data: { countId, status: 'review', stockChanged: true } },
      };
  }
}

/** What an entry kept for its undo (a deleted product, a replaced picture), if anything. */
async function snapshotOf(trx: DB, entryId: number): Promise<unknown> {
  const kept = await trx
    .selectFrom('activity_entries')
    .select('snapshot')
    .where('id', '=', entryId)
    .executeTakeFirstOrThrow();
  return kept.snapshot === null ? undefined : (JSON.parse(kept.snapshot) as unknown);
}

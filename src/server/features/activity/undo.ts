import { ACTIVITY_MESSAGES as A, UNDO_WINDOW_MS } from '../../../shared/activity.js';
import { can, roleCannot } from '../../../shared/catalogue-roles.js';
import type { ActivityEntry } from '../../../shared/schemas/activity.js';
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { DB } from '../../infra/db/handle.js';
import type { CurrentCatalogue } from '../catalogues/index.js';
import type { PictureChange } from '../products/index.js';
import { recordLiveEvent } from '../live-events/index.js';
import { entriesQuery, notUndoable, parts, toEntry, undoAction, type EntryRow } from './entries.js';
import { recordActivity } from './record.js';

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

  const { restores, present } = app.products;
  const target = { id: catalogue.id, actorId: catalogue.actorId };
  const productId = found.product_id!;
  const product = { id: productId, name: found.product_name ?? '' };
  try {
    return await app.db.transaction().execute(async (trx) => {
      await catalogue.confirm(trx);
      const data: Record<string, unknown> = { undoes: String(found.id), kind: found.kind };
      const undoId = await recordActivity(
        trx,
        catalogue,
        'undo',
        { product, data, undoes: Number(found.id) },
        now,
      );
      const stored = JSON.parse(found.data) as Record<string, unknown>;
      let result;
      if (found.kind === 'stock.moved') {
        const delta = -Number(stored.delta);
        result = await restores.moveStock(trx, target, productId, delta, now);
      } else if (found.kind === 'product.updated') {
        const changes = parts(found.data).changes ?? {};
        const kept = (await snapshotOf(trx, Number(found.id))) as { picture?: PictureChange };
        result = await restores.revertEdit(trx, target, productId, changes, now, kept?.picture);
      } else {
        const snapshot = (await snapshotOf(trx, Number(found.id))) as Parameters<
          typeof restores.restoreDeleted
        >[2];
        result = await restores.restoreDeleted(trx, target, snapshot, now);
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
        case 'done':
          break;
      }
      const shown = present.product(result.row);
      // The same events as the kind of change reversed, so that other screens follow.
      if (found.kind === 'stock.moved') {
        const { stock, updatedAt } = shown;
        await recordLiveEvent(
          trx,
          catalogue.id,
          'stock.changed',
          { id: productId, stock, updatedAt },
          now,
        );
      } else {
        const kind = found.kind === 'product.deleted' ? 'product.created' : 'product.updated';
        await recordLiveEvent(trx, catalogue.id, kind, { product: shown }, now);
      }
      if ('movementId' in result && result.movementId !== undefined) {
        data.movementId = String(result.movementId);
        await trx
          .updateTable('activity_entries')
          .set({ data: JSON.stringify(data) })
          .where('id', '=', undoId)
          .execute();
      }
      const row = (await entriesQuery(
        trx,
        catalogue.id,
        { id: undoId },
        1,
      ).executeTakeFirstOrThrow()) as EntryRow;
      return toEntry(row, catalogue.role, now);
    });
  } catch (error) {
    if (isSecondUndo(error)) throw conflict(A.alreadyUndone);

    throw error;
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

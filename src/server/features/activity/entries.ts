import {
  UNDO_WINDOW_MS,
  UNDOABLE_KINDS,
  type ActivityKind,
  type ActivitySource,
} from '../../../shared/activity.js';
import { can, type CatalogueRole } from '../../../shared/catalogue-roles.js';
import type { ActivityEntry } from '../../../shared/schemas/activity.js';
import { sql } from 'kysely';
import type { DB } from '../../infra/db/handle.js';

/** What narrows a page of entries (the query's, decoded). */
export interface EntryFilter {
  id?: number;
  product?: string | undefined;
  member?: string | undefined;
  kind?: ActivityKind | undefined;
  from?: number | undefined;
  to?: number | undefined;
  before?: number | undefined;
}

/** An entry as read, with its actor's name and the undo that undid it. */
export interface EntryRow {
  id: number | string;
  kind: ActivityKind;
  source: ActivitySource;
  actor_id: string | null;
  actor_name: string | null;
  product_id: string | null;
  product_name: string | null;
  data: string;
  created_at: number | string;
  undone_by: number | string | null;
  /** Whether the entry keeps what an undo puts back (a deleted product). */
  restorable: number | string;
}

/** Entries of one catalogue, newest first: up to `rows`. */
export function entriesQuery(db: DB, catalogueId: string, filter: EntryFilter, rows: number) {
  return db
    .selectFrom('activity_entries as e')
    .leftJoin('users', 'users.id', 'e.actor_id')
    .select([
      'e.id',
      'e.kind',
      'e.source',
      'e.actor_id',
      // A deleted account's entries keep its name as text.
      (eb) => eb.fn.coalesce('users.name', 'e.actor_name').as('actor_name'),
      'e.product_id',
      'e.product_name',
      'e.data',
      'e.created_at',
      // One probe of the unique `undoes` per entry of the page: a join let PostgreSQL merge
      // with that whole index, every catalogue's entries.
      (eb) =>
        eb
          .selectFrom('activity_entries as u')
          .select('u.id')
          .whereRef('u.undoes', '=', 'e.id')
          .as('undone_by'),
      sql<number>`case when e.snapshot is null then 0 else 1 end`.as('restorable'),
    ])
    .where('e.catalogue_id', '=', catalogueId)
    .$if(filter.id !== undefined, (q) => q.where('e.id', '=', filter.id!))
    .$if(filter.product !== undefined, (q) => q.where('e.product_id', '=', filter.product!))
    .$if(filter.member !== undefined, (q) => q.where('e.actor_id', '=', filter.member!))
    .$if(filter.kind !== undefined, (q) => q.where('e.kind', '=', filter.kind!))
    .$if(filter.from !== undefined, (q) => q.where('e.created_at', '>=', filter.from!))
    .$if(filter.to !== undefined, (q) => q.where('e.created_at', '<=', filter.to!))
    .$if(filter.before !== undefined, (q) => q.where('e.id', '<', filter.before!))
    .orderBy('e.id', 'desc')
    .limit(rows);
}

type Changes = Record<string, { before: unknown; after: unknown }>;

/** The parts of an entry's data: what changed, and the rest (without what only an undo reads). */
export function parts(data: string): { changes: Changes | null; rest: Record<string, unknown> } {
  const { changes, ...rest } = JSON.parse(data) as Record<string, unknown>;
  return { changes: (changes as Changes | undefined) ?? null, rest };
}

/** Whether an entry cannot be undone, whatever the caller's role. */
export function notUndoable(row: Pick<EntryRow, 'kind' | 'data' | 'restorable'>): boolean {
  if (!(row.kind in UNDOABLE_KINDS)) return true;
  const parsed = JSON.parse(row.data) as { changes?: Changes };
  // An edit that replaced the picture is put back whole or not at all: it needs the pictures
  // its entry kept (edits recorded before they were kept have none). One that changed nothing
  // (logged so once) has nothing to put back.
  if (row.kind === 'product.updated') {
    const changed = parsed.changes ? Object.keys(parsed.changes) : [];
    return changed.length === 0 || (changed.includes('image') && Number(row.restorable) !== 1);
  }
  if (row.kind === 'product.deleted') return Number(row.restorable) !== 1;
  return false;
}

/** The action a member needs to have made (and so to undo) a change of this kind. */
export const undoAction = (kind: ActivityKind) =>
  UNDOABLE_KINDS[
    kind as keyof typeof UNDOABLE_KINDS
  ] as (typeof UNDOABLE_KINDS)[keyof typeof UNDOABLE_KINDS];

export function toEntry(row: EntryRow, role: CatalogueRole, now: number): ActivityEntry {
  const { changes, rest } = parts(row.data);
  const at = Number(row.created_at);
  const undoneBy = row.undone_by === null ? null : String(row.undone_by);
  const undoable =
    !notUndoable(row) &&
    undoneBy === null &&
    now - at < UNDO_WINDOW_MS &&
    can(role, undoAction(row.kind));
  return {
    id: String(row.id),
    kind: row.kind,
    at: new Date(at).toISOString(),
    source: row.source,
    actor: row.actor_name !== null ? { id: row.actor_id, name: row.actor_name } : null,
    product: row.product_id !== null ? { id: row.product_id, name: row.product_name ?? '' } : null,
    changes,
    data: rest,
    undoable,
    undoneBy,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A query's `from`/`to` as epoch milliseconds; a date alone is its whole day (UTC). */
export function rangeOf(from?: string, to?: string) {
  const start = from === undefined ? undefined : Date.parse(from);
  let end = to === undefined ? undefined : Date.parse(to);
  if (end !== undefined && to !== undefined && DATE_ONLY.test(to)) end += DAY_MS - 1;
  return { from: start, to: end };
}

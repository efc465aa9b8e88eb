import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../migrate.js';

/** Windows kept above the floor when it rises: twice the most a report shows (migration 048). */
const KEPT = 200;
/** Marked windows past which the floor rises. */
const MARKED_MAX = 800;

/** The marked windows of the row's catalogue and window. */
const MARKED = `from product_windows pw where pw.catalogue_id = new.catalogue_id
  and pw.days = new.days and pw.top = 1`;
/** Whether more than MARKED_MAX of them are marked: each step reads MARKED_MAX + 1 at most. */
const TOO_MANY = `(select count(*) from (select 1 ${MARKED} limit ${MARKED_MAX + 1})) > ${MARKED_MAX}`;

/**
 * SQLite's triggers that raise a window's floor as its windows are marked (migration 048) also
 * unmarked, every time, each marked window below the floor, even when the floor had not risen: a
 * window marked below it on purpose lost its mark at once. An undone delete marks its product's
 * windows so that a lowering that read the window before the undo, and finds what moved meanwhile
 * by movement ids the undo keeps, still counts the product. The windows are now unmarked only
 * when the floor was raised: `changes()` in a trigger's body counts the rows of its statement
 * before, so the unmarking costs no second count of the marked windows. Dropped and made again: instances starting together run it one after the
 * other. PostgreSQL has no such triggers (its report raises the floor).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  const raiseFloor = `update window_starts set top_floor = max(top_floor, coalesce((select pw.moved
      ${MARKED} order by pw.moved desc, pw.name_key, pw.product_id limit 1 offset ${KEPT - 1}), 0))
    where catalogue_id = new.catalogue_id and days = new.days and ${TOO_MANY};
    update product_windows set top = 0 where catalogue_id = new.catalogue_id and days = new.days
      and top = 1 and moved < (select s.top_floor from window_starts s
        where s.catalogue_id = new.catalogue_id and s.days = new.days) and changes() > 0;`;
  await sql`drop trigger if exists product_windows_marked_insert`.execute(db);
  await sql`drop trigger if exists product_windows_marked_update`.execute(db);
  await sql`create trigger product_windows_marked_insert after insert on product_windows
    when new.top = 1 begin ${sql.raw(raiseFloor)} end`.execute(db);
  await sql`create trigger product_windows_marked_update after update of top on product_windows
    when old.top = 0 and new.top = 1 begin ${sql.raw(raiseFloor)} end`.execute(db);
}

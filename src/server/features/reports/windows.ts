import { sql, type SqlBool } from 'kysely';
import { TOP_MOVERS_MAX } from '../../../shared/schemas/reports.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { visibleProduct } from '../../infra/db/visible-products.js';
import { nextTurn } from '../../lib/turns.js';

/** Ids a statement names at once: far under every engine's limit on bound values. */
const ID_CHUNK = 500;

/** A product's kept days added up: units in and out, movements. */
export const SUMS = (['units_in', 'units_out', 'moves'] as const).map((column) =>
  sql<number>`sum(${sql.ref(column)})`.as(column),
);

/** Windows left marked above a floor the report sets: twice the most it shows. */
const TOP_KEPT = 2 * TOP_MOVERS_MAX;
/** Marked windows past which the report raises the floor: the index stays a few pages. */
const TOP_MARKED_MAX = 4 * TOP_KEPT;
/** Windows read at once when a floor is lowered: a few milliseconds of the event loop. */
const WINDOW_CHUNK = 2_000;

/** What the first step of SQLite's lowering read, for its second (MoverWindows.readLowering). */
interface Lowering {
  catalogueId: string;
  days: number;
  /** The window's start and floor when the read began. */
  before: { top_floor: number; start_day: number };
  /** The catalogue's last movement then. */
  since: number;
  floor: number;
  atOrAbove: string[];
}

/**
 * A catalogue's kept windows of the top movers (migrations 041 and 048): where each starts, its
 * move forward, and the floor above which every window is marked, so that the index of the
 * marked holds the report's answer and a movement of any other product writes none of its pages.
 */
export class MoverWindows {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /**
   * The first `limit` visible windows of those marked (migration 048), and whether they are the
   * answer: every window that moved at least the floor is marked, so they are when the last of
   * them moved that much, or when the floor is 0 (every window marked).
   */
  async markedTop(catalogueId: string, days: number, limit: number) {
    const rows = await this.db
      .selectFrom('product_windows')
      .innerJoin('products', 'products.id', 'product_windows.product_id')
      .innerJoin('window_starts', (join) =>
        join
          .onRef('window_starts.catalogue_id', '=', 'product_windows.catalogue_id')
          .onRef('window_starts.days', '=', 'product_windows.days'),
      )
      .select([
        'products.id',
        'products.name',
        'product_windows.units_in',
        'product_windows.units_out',
        'product_windows.moved',
        'window_starts.top_floor',
      ])
      .where('product_windows.catalogue_id', '=', catalogueId)
      .where('product_windows.days', '=', days)
      // As the index's condition has it, word for word.
      .where(sql<SqlBool>`product_windows.top = 1`)
      .where('products.catalogue_id', '=', catalogueId)
      .where(visibleProduct())
      .orderBy('product_windows.moved', 'desc')
      .orderBy('product_windows.name_key')
      .orderBy('product_windows.product_id')
      .limit(limit)
      .execute();
    const floor =
      rows.length > 0 ? Number(rows[0]!.top_floor) : await this.floorOf(catalogueId, days);
    const whole = floor === 0 || (rows.length === limit && Number(rows.at(-1)!.moved) >= floor);
    return { rows, whole, floor };
  }

  private async floorOf(catalogueId: string, days: number) {
    const row = await this.db
      .selectFrom('window_starts')
      .select('top_floor')
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', days)
      .executeTakeFirst();
    return Number(row?.top_floor ?? 0);
  }

  /**
   * Whether raising the floor would unmark windows: more than TOP_MARKED_MAX are marked (as many
   * steps of the index), and not all of them from the TOP_KEPT-th on tie at the floor.
   */
  async manyMarked(catalogueId: string, days: number, floor: number) {
    const movedAt = async (offset: number) => {
      const row = await this.db
        .selectFrom('product_windows')
        .select('moved')
        .where('catalogue_id', '=', catalogueId)
        .where('days', '=', days)
        .where(sql<SqlBool>`top = 1`)
        .orderBy('moved', 'desc')
        .orderBy('name_key')
        .orderBy('product_id')
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.moved);
    };
    const past = await movedAt(TOP_MARKED_MAX);
    if (past === undefined) return false;
    return past !== floor || (await movedAt(TOP_KEPT - 1)) !== floor;
  }

  /**
   * Sets the floor of the catalogue's window of `days` to the TOP_KEPT-th visible window's
   * `moved` (0 when fewer), marks those at or above it and unmarks the others. Raised, it is found
   * among the marked alone (every window above the old floor is); lowered (too few visible
   * windows marked above it: the start moved on, products deleted or staged), among all of the
   * window, a chunk at a time. Raised, and lowered on PostgreSQL, in one transaction with the
   * start, which PostgreSQL locks `for update` against the writes that mark windows (they read it
   * `for share`). Lowered on SQLite, the window is read before the transaction (readLowering).
   */
  async setFloor(catalogueId: string, days: number, how: 'raise' | 'lower') {
    if (how === 'lower' && this.dialect === 'sqlite') {
      const lowering = await this.readLowering(catalogueId, days);
      if (lowering) await this.applyLowering(lowering);
      return;
    }
    await this.withStart(catalogueId, days, async (trx, start) => {
      let floor: number;
      if (how === 'raise') {
        const kept = await this.windows(trx, catalogueId, days)
          .select('product_windows.moved')
          .where(sql<SqlBool>`product_windows.top = 1`)
          .where(visibleProduct())
          .orderBy('product_windows.moved', 'desc')
          .orderBy('product_windows.name_key')
          .orderBy('product_windows.product_id')
          .limit(1)
          .offset(TOP_KEPT - 1)
          .executeTakeFirst();
        floor = Math.max(Number(start.top_floor), Number(kept?.moved ?? 0));
        await this.putFloor(trx, catalogueId, days, floor);
      } else {
        const { floor: lowered, atOrAbove } = await this.readFloor(trx, catalogueId, days);
        floor = lowered;
        await this.putFloor(trx, catalogueId, days, floor);
        await this.mark(trx, days, atOrAbove);
      }
      await this.unmarkBelowFloor(trx, catalogueId, days);
    });
  }

  /**
   * SQLite's lowering, in two steps. Its writer is the file's, held by a transaction from its
   * BEGIN, and a window of 100,000 products takes some 50 turns to read. So this first step reads
   * outside any transaction: the window's start and floor as they were, the last movement, then
   * the floor and the windows at or above it, a chunk a turn. Other writes commit meanwhile, and
   * before the second step (applyLowering). Undefined for no such window.
   */
  async readLowering(catalogueId: string, days: number): Promise<Lowering | undefined> {
    const before = await this.startOf(this.db, catalogueId, days);
    if (!before) return undefined;
    const last = await this.db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('catalogue_id', '=', catalogueId)
      .executeTakeFirst();
    const since = Number(last?.id ?? 0);
    const read = await this.readFloor(this.db, catalogueId, days);
    return { catalogueId, days, before, since, ...read };
  }

  /**
   * The second step, one short transaction: the floor and the marks written, unless the start or
   * the floor changed since the read (then the report adds up the days; the next one tries
   * again). What moved since the read began is marked too: a window only grows between two moves
   * of its start, and only by a movement, which SQLite numbers in the order its writes commit, so
   * the windows of the products with a movement numbered after `since` are the only ones it may
   * have read too low.
   */
  async applyLowering({ catalogueId, days, before, since, floor, atOrAbove }: Lowering) {
    await this.withStart(catalogueId, days, async (trx, now) => {
      const same =
        Number(now.top_floor) === Number(before.top_floor) &&
        Number(now.start_day) === Number(before.start_day);
      if (!same) return;
      await this.putFloor(trx, catalogueId, days, floor);
      await this.mark(trx, days, atOrAbove);
      await this.marking(trx, catalogueId, days, 1)
        .where('moved', '>=', floor)
        .where(
          'product_id',
          'in',
          trx
            .selectFrom('stock_movements')
            .select('product_id')
            .where('catalogue_id', '=', catalogueId)
            .where('id', '>', since),
        )
        .execute();
      await this.unmarkBelowFloor(trx, catalogueId, days);
    });
  }

  /**
   * Where the catalogue's window of `days` starts and its floor, locked `for update` on PostgreSQL
   * (in a transaction, against the writes that mark windows, which read it `for share`).
   */
  private startOf(db: DB, catalogueId: string, days: number) {
    return db
      .selectFrom('window_starts')
      .select(['top_floor', 'start_day'])
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', days)
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
  }

  /** Runs `work` in a transaction that read the window's start first; none when it has none. */
  private async withStart(
    catalogueId: string,
    days: number,
    work: (trx: DB, start: { top_floor: number; start_day: number }) => Promise<void>,
  ) {
    await this.db.transaction().execute(async (trx) => {
      const start = await this.startOf(trx, catalogueId, days);
      if (start) await work(trx, start);
    });
  }

  /** The catalogue's windows of `days`, joined to their products. */
  private windows(db: DB, catalogueId: string, days: number) {
    return db
      .selectFrom('product_windows')
      .innerJoin('products', 'products.id', 'product_windows.product_id')
      .where('product_windows.catalogue_id', '=', catalogueId)
      .where('product_windows.days', '=', days)
      .where('products.catalogue_id', '=', catalogueId);
  }

  /**
   * The floor among the visible windows of the whole window, read a chunk a turn, and the windows
   * at or above it, a staged product's too (it shows once its import is published): all to be
   * marked, whatever their mark when read.
   */
  private async readFloor(db: DB, catalogueId: string, days: number) {
    const visible: number[] = [];
    const all: { id: string; moved: number }[] = [];
    for (let after = ''; ;) {
      const chunk = await this.windows(db, catalogueId, days)
        .select(['product_windows.product_id', 'product_windows.moved'])
        .select(visibleProduct().as('visible'))
        .where('product_windows.product_id', '>', after)
        .orderBy('product_windows.product_id')
        .limit(WINDOW_CHUNK)
        .execute();
      for (const row of chunk) {
        if (row.visible) visible.push(Number(row.moved));
        all.push({ id: row.product_id, moved: Number(row.moved) });
      }
      if (chunk.length < WINDOW_CHUNK) break;
      after = chunk.at(-1)!.product_id;
      await nextTurn();
    }
    visible.sort((x, y) => y - x);
    const floor = visible.length >= TOP_KEPT ? visible[TOP_KEPT - 1]! : 0;
    const atOrAbove = all.filter((row) => row.moved >= floor).map((row) => row.id);
    return { floor, atOrAbove };
  }

  /**
   * The catalogue's windows of `days` marked otherwise, to be marked `top`: read from the index
   * of the marked (its condition word for word) or of the others.
   */
  private marking(trx: DB, catalogueId: string, days: number, top: 0 | 1) {
    return trx
      .updateTable('product_windows')
      .set({ top })
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', days)
      .where(sql<SqlBool>`top = ${sql.lit(1 - top)}`);
  }

  /** Marks these windows of `days`: a few statements of ID_CHUNK ids each. */
  private async mark(trx: DB, days: number, ids: string[]) {
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      await trx
        .updateTable('product_windows')
        .set({ top: 1 })
        .where('days', '=', days)
        .where('product_id', 'in', ids.slice(i, i + ID_CHUNK))
        .where(sql<SqlBool>`top = 0`)
        .execute();
    }
  }

  /**
   * Unmarks the windows below the floor, as it is now (SQLite's triggers may have raised it as
   * windows were marked): read from the index of the marked.
   */
  private async unmarkBelowFloor(trx: DB, catalogueId: string, days: number) {
    await this.marking(trx, catalogueId, days, 0)
      .where(
        'moved',
        '<',
        trx
          .selectFrom('window_starts')
          .select('top_floor')
          .where('catalogue_id', '=', catalogueId)
          .where('days', '=', days),
      )
      .execute();
  }

  /** Sets the floor first: a window marked after it (SQLite's triggers) may raise it again. */
  private async putFloor(trx: DB, catalogueId: string, days: number, floor: number) {
    await trx
      .updateTable('window_starts')
      .set({ top_floor: floor })
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', days)
      .execute();
  }

  /** Where the catalogue's window of `days` starts (a day), or undefined for no such window. */
  async start(catalogueId: string, days: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('window_starts')
      .select('start_day')
      .where('catalogue_id', '=', catalogueId)
      .where('days', '=', days)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.start_day);
  }

  /**
   * Moves the catalogue's window of `days` forward to `firstDay` when it starts before: the kept
   * days it leaves behind are taken out of its products' windows (a product with no movement left
   * in it leaves), in one transaction with the start, which PostgreSQL locks `for update` against
   * the writes that add to the windows (they read it `for share`). Returns where it starts now.
   */
  async moveTo(catalogueId: string, days: number, firstDay: number) {
    const start = await this.start(catalogueId, days);
    if (start === undefined || start >= firstDay) return start;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('window_starts')
        .select('start_day')
        .where('catalogue_id', '=', catalogueId)
        .where('days', '=', days)
        .$if(this.dialect === 'postgres', (query) => query.forUpdate())
        .executeTakeFirstOrThrow();
      const from = Number(row.start_day);
      // Moved already by another request meanwhile.
      if (from >= firstDay) return from;
      const daysLeft = trx
        .selectFrom('product_days')
        .where('catalogue_id', '=', catalogueId)
        .where('day', '>=', from)
        .where('day', '<', firstDay);
      const left = daysLeft.select(['product_id', ...SUMS]).groupBy('product_id');
      await trx
        .updateTable('product_windows')
        .from(left.as('d'))
        .set((eb) => ({
          units_in: eb('product_windows.units_in', '-', eb.ref('d.units_in')),
          units_out: eb('product_windows.units_out', '-', eb.ref('d.units_out')),
          moves: eb('product_windows.moves', '-', eb.ref('d.moves')),
          moved: sql`product_windows.moved - (d.units_in + d.units_out)`,
        }))
        .whereRef('product_windows.product_id', '=', 'd.product_id')
        .where('product_windows.days', '=', days)
        .execute();
      // Movements only add to a window: those the days left took from are the only ones that
      // can be left with none, so they alone are read (not the catalogue's every window).
      await trx
        .deleteFrom('product_windows')
        .where('catalogue_id', '=', catalogueId)
        .where('product_id', 'in', daysLeft.select('product_id'))
        .where('days', '=', days)
        .where('moves', '<=', 0)
        .execute();
      await trx
        .updateTable('window_starts')
        .set({ start_day: firstDay })
        .where('catalogue_id', '=', catalogueId)
        .where('days', '=', days)
        .execute();
      return firstDay;
    });
  }
}

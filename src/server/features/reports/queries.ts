import { sql, type SqlBool } from 'kysely';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { keptTotals } from '../products/index.js';
import { dollars } from './csv.js';
import { MoverWindows, SUMS } from './windows.js';
import { visibleProduct } from '../../infra/db/visible-products.js';

/** Ids a query names at once: far under every engine's limit on bound values. */
const ID_CHUNK = 500;

export const DAY_MS = 86_400_000;

/** A query as it is without a limit, else cut to `limit` rows. */
const upTo = <Q extends { limit(count: number): Q }>(query: Q, limit: number | undefined) =>
  limit === undefined ? query : query.limit(limit);

/** The stock at the end of one UTC day: units, and their value at today's prices in cents. */
export interface DayStock {
  /** Midnight (UTC) that starts the day, epoch milliseconds. */
  start: number;
  units: number;
  valueCents: bigint;
}

export interface MoverRow {
  id: string;
  name: string;
  unitsIn: number;
  unitsOut: number;
}

export interface DeadRow {
  id: string;
  name: string;
  stock: number;
  priceCents: number;
  lastMovedAt: number;
}

export interface ReorderRow {
  id: string;
  name: string;
  stock: number;
  reorderPoint: number;
}

/** The three parts of a kept day's value at today's prices: low + middle·2^16 + high·2^32. */
const PARTS = ['value_low', 'value_middle', 'value_high'] as const;

const moverRow = (row: { id: string; name: string; units_in: unknown; units_out: unknown }) => ({
  id: row.id,
  name: row.name,
  unitsIn: Number(row.units_in),
  unitsOut: Number(row.units_out),
});

/** Midnight (UTC) of the first of `days` days that end with today's. */
const periodStart = (now: number, days: number) =>
  Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;

/**
 * The reports' reads, from what the database keeps as movements are written: the stock over time
 * from the catalogue's days (migration 033), the top movers from the products' windows (migration
 * 041), the dead stock from when each product last moved (migration 042). Each reads at most a
 * row per day or per product of the answer; the server never walks the movements itself.
 */
export class ReportQueries {
  constructor(
    private readonly db: DB,
    private readonly dialect: MigrationDialect,
  ) {}

  /**
   * Units and value at the end of each day: today's totals less what moved after that day. What
   * moved on each day after the first comes from the catalogue's kept days (migration 033: units
   * and price × units at today's prices), at most a row per day, and the days are then rolled
   * back from today, newest first.
   */
  async stockOverTime(catalogueId: string, now: number, days: number): Promise<DayStock[]> {
    const first = periodStart(now, days);
    // Today's units and value: the catalogue's kept totals, one row.
    const totals = await keptTotals(this.db, catalogueId, 'all');
    const perDay = await this.db
      .selectFrom('catalogue_days')
      .select(['day', 'units'])
      // As text: a part may pass 2^53.
      .select(PARTS.map((part) => sql<string>`cast(${sql.ref(part)} as text)`.as(part)))
      .where('catalogue_id', '=', catalogueId)
      .where('day', '>', first / DAY_MS)
      .execute();
    // What moved on each day after the first (a movement dated after today, from a clock set
    // back, counts with today's next day: after every day of the period).
    const later = new Map<number, { units: number; cents: bigint }>();
    for (const row of perDay) {
      const index = Math.min(Number(row.day) - first / DAY_MS, days);
      const [low, middle, high] = PARTS.map((part) => BigInt(row[part]));
      const sum = later.get(index) ?? { units: 0, cents: 0n };
      later.set(index, {
        units: sum.units + Number(row.units),
        cents: sum.cents + low! + (middle! << 16n) + (high! << 32n),
      });
    }
    let units = Number(totals.units);
    let cents = totals.valueCents;
    const points: DayStock[] = [];
    for (let index = days - 1; index >= 0; index -= 1) {
      const after = later.get(index + 1);
      if (after) {
        units -= after.units;
        cents -= after.cents;
      }
      points.push({ start: first + index * DAY_MS, units, valueCents: cents });
    }
    return points.reverse();
  }

  /**
   * Units in and out per product since the first day's midnight, the most moved first: the
   * catalogue's kept window of that length (migration 041), moved forward to this period's first
   * day, read in the report's order from the index of its marked windows (migration 048), so that
   * the answer costs its rows however many products moved. The floor is set again when the marked
   * do not hold the answer, or hold many more. A period that starts before the window (a clock set
   * back) is added up from the kept days instead.
   */
  async topMovers(
    catalogueId: string,
    now: number,
    days: number,
    limit: number,
  ): Promise<MoverRow[]> {
    const firstDay = periodStart(now, days) / DAY_MS;
    const windows = new MoverWindows(this.db, this.dialect);
    if ((await windows.moveTo(catalogueId, days, firstDay)) !== firstDay) {
      return this.moversFromDays(catalogueId, firstDay, limit);
    }
    let top = await windows.markedTop(catalogueId, days, limit);
    if (!top.whole) {
      await windows.setFloor(catalogueId, days, 'lower');
      top = await windows.markedTop(catalogueId, days, limit);
    } else if (await windows.manyMarked(catalogueId, days, top.floor)) {
      await windows.setFloor(catalogueId, days, 'raise');
    }
    // Another instance, its clock a little ahead past midnight, may have moved the window on
    // while it was read: then this period's answer is added up from the days.
    if (!top.whole || (await windows.start(catalogueId, days)) !== firstDay) {
      return this.moversFromDays(catalogueId, firstDay, limit);
    }
    return top.rows.map(moverRow);
  }

  /**
   * The top movers added up from the catalogue's kept days from `firstDay` on (migration 033), a
   * row per product and day, from their index alone: for a period the window does not hold.
   */
  private async moversFromDays(catalogueId: string, firstDay: number, limit: number) {
    const moved = this.db
      .selectFrom('product_days')
      // Units in and out: what the days' index holds.
      .select(['product_id', ...SUMS.slice(0, 2)])
      .where('catalogue_id', '=', catalogueId)
      .where('day', '>=', firstDay)
      .groupBy('product_id');
    // Names are read for the chosen few only; the ranking needs no more than the name's key.
    const top = this.db
      .selectFrom(moved.as('moved'))
      .innerJoin('products', 'products.id', 'moved.product_id')
      .select(['products.id', 'products.name_key', 'moved.units_in', 'moved.units_out'])
      .where('products.catalogue_id', '=', catalogueId)
      .where(visibleProduct())
      .orderBy(sql`moved.units_in + moved.units_out`, 'desc')
      .orderBy('products.name_key')
      .orderBy('products.id')
      .limit(limit);
    const rows = await this.db
      .selectFrom(top.as('top'))
      .innerJoin('products', 'products.id', 'top.id')
      .select(['products.id', 'products.name', 'top.units_in', 'top.units_out'])
      .where('products.catalogue_id', '=', catalogueId)
      .orderBy(sql`top.units_in + top.units_out`, 'desc')
      .orderBy('top.name_key')
      .orderBy('top.id')
      .execute();
    return rows.map(moverRow);
  }

  /**
   * Products with stock that have not moved since `cutoff`, nor been created since: the longest
   * still first. Each product keeps when it last moved (migration 042), and the index of the
   * products with stock by the later of that and their creation answers in this order, the cutoff
   * a range of it: the report reads its rows and no more.
   */
  async deadStock(catalogueId: string, cutoff: number, limit?: number): Promise<DeadRow[]> {
    // As the index `products_idle` has it, word for word, with its condition (stock > 0).
    const idle = sql<number>`(case when last_moved_at > created_at then last_moved_at else created_at end)`;
    const query = this.db
      .selectFrom('products')
      .select(['id', 'name', 'stock', 'price_cents', idle.as('last_moved_at')])
      .where('catalogue_id', '=', catalogueId)
      .where(sql<SqlBool>`stock > 0`)
      .where(idle, '<', cutoff)
      .where(visibleProduct())
      .orderBy(idle)
      .orderBy('name_key')
      .orderBy('id');
    const rows = await upTo(query, limit).execute();
    return rows.map(({ price_cents, last_moved_at, ...row }) => ({
      ...row,
      priceCents: Number(price_cents),
      lastMovedAt: Number(last_moved_at),
    }));
  }

  /**
   * Products at or below their reorder point (their own, else the catalogue's), the most short
   * first, then by name. The rule in two parts, each read in that order from an index that holds
   * only its products: by their own point, `stock - reorder_point` ascending (migration 036); by
   * the catalogue's, which they share, `stock` ascending, among the products marked to reorder
   * (migration 055: an index of every product by stock moved an entry at each stock change). A
   * page takes at most `limit` rows of each and merges them, so it costs the same however many
   * products are due.
   */
  async toReorder(catalogueId: string, limit?: number): Promise<ReorderRow[]> {
    const cataloguePoint = sql<number>`(select reorder_point from catalogues where id = ${catalogueId})`;
    const columns = ['id', 'name', 'name_key', 'stock'] as const;
    const shortfall = sql<number>`stock - reorder_point`;
    const own = this.db
      .selectFrom('products')
      .select(columns)
      .select(sql<number>`reorder_point`.as('point'))
      .where('catalogue_id', '=', catalogueId)
      .where(visibleProduct())
      .where('reorder_point', 'is not', null)
      .where(sql<SqlBool>`stock <= reorder_point`)
      .orderBy(shortfall)
      .orderBy('name_key')
      .orderBy('id');
    const byCatalogue = this.db
      .selectFrom('products')
      .select(columns)
      .select(cataloguePoint.as('point'))
      .where('catalogue_id', '=', catalogueId)
      .where(visibleProduct())
      .where('reorder_point', 'is', null)
      .where('reorder_crossed_at', 'is not', null)
      .where('stock', '<=', cataloguePoint)
      .orderBy('stock')
      .orderBy('name_key')
      .orderBy('id');
    const part = (query: typeof own, alias: string) =>
      this.db.selectFrom(upTo(query, limit).as(alias)).selectAll();
    const query = this.db
      .selectFrom(part(own, 'own').unionAll(part(byCatalogue, 'by_catalogue')).as('due'))
      .select(['id', 'name', 'stock', 'point'])
      .orderBy(sql`stock - point`)
      .orderBy('name_key')
      .orderBy('id');
    const rows = await upTo(query, limit).execute();
    return rows.map(({ point, ...row }) => ({ ...row, reorderPoint: Number(point) }));
  }

  /**
   * What is on order of these products of a catalogue, by id: the units of their lines on orders
   * ordered or partly received, less what came in (a line received past its quantity counts 0).
   * Read from the index of open lines only (migration 037), a chunk of ids at a time.
   */
  async onOrderOf(catalogueId: string, ids: string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (let start = 0; start < ids.length; start += ID_CHUNK) {
      const rows = await this.db
        .selectFrom('purchase_order_lines')
        .select(['product_id', 'quantity', 'received'])
        .where('catalogue_id', '=', catalogueId)
        .where('is_open', '=', 1)
        .where('product_id', 'in', ids.slice(start, start + ID_CHUNK))
        .execute();
      for (const row of rows) {
        const due = Math.max(0, row.quantity - row.received);
        found.set(row.product_id, (found.get(row.product_id) ?? 0) + due);
      }
    }
    return found;
  }

  /** The SKU, barcode and cost (in dollars) of these products of a catalogue, by id; '' if none. */
  async codesOf(catalogueId: string, ids: string[]) {
    const found = new Map<string, { sku: string; barcode: string; cost: string }>();
    for (let start = 0; start < ids.length; start += ID_CHUNK) {
      const rows = await this.db
        .selectFrom('products')
        .select(['id', 'sku', 'barcode', 'cost_cents'])
        .where('catalogue_id', '=', catalogueId)
        .where('id', 'in', ids.slice(start, start + ID_CHUNK))
        .where(visibleProduct())
        .execute();
      for (const row of rows) {
        const cost = row.cost_cents === null ? '' : dollars(BigInt(row.cost_cents));
        found.set(row.id, { sku: row.sku ?? '', barcode: row.barcode ?? '', cost });
      }
    }
    return found;
  }
}

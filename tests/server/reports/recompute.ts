import type { DB } from '../../../src/server/infra/db/handle.js';
import { moneyTotal } from '../../../src/server/features/products/exact-sum.js';

/**
 * The reports recomputed in plain TypeScript from the raw rows of a catalogue: what the SQL of the
 * reports feature must agree with, figure for figure.
 */

const DAY = 86_400_000;

interface RawProduct {
  id: string;
  name: string;
  name_key: string;
  stock: number;
  price_cents: number;
  created_at: number;
  reorder_point: number | null;
  sku: string | null;
  barcode: string | null;
  cost_cents: number | null;
}

interface RawMovement {
  product_id: string;
  created_at: number;
  delta: number;
}

export interface Raw {
  products: RawProduct[];
  movements: RawMovement[];
  cataloguePoint: number;
}

export async function readRaw(db: DB, catalogueId: string): Promise<Raw> {
  const products = (
    await db
      .selectFrom('products')
      .select([
        'id',
        'name',
        'name_key',
        'stock',
        'price_cents',
        'created_at',
        'reorder_point',
        'sku',
        'barcode',
        'cost_cents',
      ])
      .where('catalogue_id', '=', catalogueId)
      .execute()
  ).map((row) => ({
    ...row,
    price_cents: Number(row.price_cents),
    created_at: Number(row.created_at),
    cost_cents: row.cost_cents === null ? null : Number(row.cost_cents),
  }));
  const movements = (
    await db
      .selectFrom('stock_movements')
      .select(['product_id', 'created_at', 'delta'])
      .where('catalogue_id', '=', catalogueId)
      .execute()
  ).map((row) => ({ ...row, created_at: Number(row.created_at) }));
  const catalogue = await db
    .selectFrom('catalogues')
    .select('reorder_point')
    .where('id', '=', catalogueId)
    .executeTakeFirstOrThrow();
  return { products, movements, cataloguePoint: catalogue.reorder_point };
}

/** Cents as the API sends money: a number while exact, else the exact decimal as a string. */
const money = moneyTotal;

const byName = (a: RawProduct, b: RawProduct) =>
  a.name_key < b.name_key
    ? -1
    : a.name_key > b.name_key
      ? 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0;

/** Each product's movements (a catalogue of 200,000 would be quadratic otherwise). */
function movementsOf(raw: Raw) {
  const all = new Map<string, RawMovement[]>();
  for (const movement of raw.movements) {
    const list = all.get(movement.product_id);
    if (list) list.push(movement);
    else all.set(movement.product_id, [movement]);
  }
  return (id: string) => all.get(id) ?? [];
}

export function stockOverTime(raw: Raw, now: number, days: number) {
  const first = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
  const of = movementsOf(raw);
  const points = [];
  for (let i = 0; i < days; i += 1) {
    const end = first + (i + 1) * DAY;
    let units = 0;
    let cents = 0n;
    for (const product of raw.products) {
      let stock = product.stock;
      for (const movement of of(product.id)) {
        if (movement.created_at >= end) stock -= movement.delta;
      }
      units += stock;
      cents += BigInt(product.price_cents) * BigInt(stock);
    }
    points.push({
      date: new Date(first + i * DAY).toISOString().slice(0, 10),
      units,
      value: money(cents),
    });
  }
  return { days: points };
}

export function topMovers(raw: Raw, now: number, days: number, limit: number) {
  const since = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
  const of = movementsOf(raw);
  const rows = raw.products
    .map((product) => {
      let unitsIn = 0;
      let unitsOut = 0;
      let any = false;
      for (const movement of of(product.id)) {
        if (movement.created_at < since) continue;
        any = true;
        if (movement.delta > 0) unitsIn += movement.delta;
        else unitsOut -= movement.delta;
      }
      return { product, any, unitsIn, unitsOut, moved: unitsIn + unitsOut };
    })
    .filter((row) => row.any)
    .sort((a, b) => b.moved - a.moved || byName(a.product, b.product));
  return {
    products: rows.slice(0, limit).map(({ product, unitsIn, unitsOut, moved }) => ({
      id: product.id,
      name: product.name,
      unitsIn,
      unitsOut,
      moved,
    })),
  };
}

export function deadStock(raw: Raw, now: number, limit = Infinity) {
  const cutoff = now - 90 * DAY;
  const of = movementsOf(raw);
  const rows = raw.products
    .filter((product) => product.stock > 0)
    .map((product) => {
      const last = of(product.id).reduce(
        (latest: number, movement: RawMovement) => Math.max(latest, movement.created_at),
        product.created_at,
      );
      return { product, last };
    })
    .filter((row) => row.last < cutoff)
    .sort((a, b) => a.last - b.last || byName(a.product, b.product));
  return {
    products: rows.slice(0, limit).map(({ product, last }) => ({
      id: product.id,
      name: product.name,
      stock: product.stock,
      value: money(BigInt(product.price_cents) * BigInt(product.stock)),
      lastMovedAt: new Date(last).toISOString(),
    })),
  };
}

export function toReorder(raw: Raw, limit = Infinity) {
  const rows = raw.products
    .map((product) => ({ product, point: product.reorder_point ?? raw.cataloguePoint }))
    .filter(({ product, point }) => product.stock <= point)
    .sort(
      (a, b) =>
        b.point - b.product.stock - (a.point - a.product.stock) || byName(a.product, b.product),
    );
  return {
    products: rows.slice(0, limit).map(({ product, point }) => ({
      id: product.id,
      name: product.name,
      stock: product.stock,
      reorderPoint: point,
      // No purchase order in these catalogues: nothing on order.
      onOrder: 0,
      // Enough to take the stock past the point.
      toOrder: point + 1 - product.stock,
    })),
  };
}

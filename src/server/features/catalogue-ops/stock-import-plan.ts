import { skuKey } from '../../../shared/codes.js';
import { IMPORT_ERRORS_MAX, IMPORT_PREVIEW_ROWS, MAX_STOCK } from '../../../shared/constants.js';
import type { ImportError } from '../../../shared/schemas/catalogue.js';
import type { Location } from '../../../shared/schemas/locations/locations.js';
import { SI, type StockImportChange } from '../../../shared/schemas/locations/stock-import.js';
import { codeKeys, csvColumnOf, MATCH_COLUMNS, type CountedLevel } from '../products/index.js';
import type { ProductRepository, ProductRow } from '../products/index.js';
import type { CountCheck, CountRow } from './stock-import-check.js';

/** Product ids per read of their quantities. */
const LEVELS_BATCH = 500;

/** A matched row: what it counts, and (as read now) what it replaces. */
interface PlannedCount extends CountedLevel {
  name: string;
  path: string;
  before: number;
}

/** What a stock-by-location file would do: its counts that change something, and its errors. */
export interface CountPlan {
  changes: PlannedCount[];
  /** Every matched row, changing or not (the write reads the quantities again). */
  counts: PlannedCount[];
  unchanged: number;
  badRows: number;
  errors: ImportError[];
}

/**
 * A location by its path (case ignored, as siblings' names are unique) or else its code; `null`
 * for a path more than one location has (names from before a name could not hold " / "), which
 * the row must give as a code rather than have one guessed.
 */
function locationFinder(locations: Location[]) {
  const byPath = new Map<string, Location | null>();
  for (const location of locations) {
    const path = location.path.toLowerCase();
    byPath.set(path, byPath.has(path) ? null : location);
  }
  const byCode = new Map(locations.map((location) => [skuKey(location.code), location]));
  return (text: string) => {
    const path = byPath.get(text.toLowerCase());
    return path === undefined ? byCode.get(skuKey(text)) : path;
  };
}

/** The catalogue's products the rows name, read a column at a time; then which one a row names. */
async function productFinder(repository: ProductRepository, catalogueId: string, rows: CountRow[]) {
  const byColumn = MATCH_COLUMNS.map(async (column) => {
    const values = [...new Set(rows.flatMap((row) => row.keys[column] ?? []))];
    const found = await repository.findBy(catalogueId, column, values);
    const key = (product: ProductRow) => (column === 'id' ? product.id : codeKeys(product)[column]);
    return new Map(found.map((product) => [key(product), product]));
  });
  const maps = await Promise.all(byColumn);
  return (row: CountRow) => {
    for (const [i, column] of MATCH_COLUMNS.entries()) {
      const value = row.keys[column];
      const product = value === undefined ? undefined : maps[i]!.get(value);
      if (product) return product;
    }
    return undefined;
  };
}

/**
 * Ties each checked row to a product (by id, else SKU, else barcode, as the products import) and
 * a location (by path, else code), refuses a second row of the same product and location, and
 * reads what each product holds where, to tell which rows change something.
 */
export async function planCounts(
  repository: ProductRepository,
  catalogueId: string,
  locations: Location[],
  check: CountCheck,
): Promise<CountPlan> {
  const findLocation = locationFinder(locations);
  const findProduct = await productFinder(repository, catalogueId, check.rows);
  const errors = [...check.errors];
  const bad = new Set<number>();
  const refuse = (line: number, path: string, message: string) => {
    bad.add(line);
    errors.push({ line, path, message });
  };
  const seen = new Map<string, number>();
  const matched: { row: CountRow; product: ProductRow; location: Location }[] = [];
  for (const row of check.rows) {
    const product = findProduct(row);
    const location = findLocation(row.location);
    if (!product) {
      const first = MATCH_COLUMNS.find((column) => row.keys[column] !== undefined)!;
      refuse(row.line, csvColumnOf(first), SI.productNotFound);
    }
    if (location === null) refuse(row.line, 'location', SI.pathAmbiguous(row.location));
    else if (!location) refuse(row.line, 'location', SI.locationNotFound);
    if (!product || !location) continue;
    const key = `${product.id} ${location.id}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      refuse(row.line, 'location', SI.repeated(earlier));
      continue;
    }
    seen.set(key, row.line);
    matched.push({ row, product, location });
  }

  const ids = [...new Set(matched.map(({ product }) => product.id))];
  const held = new Map<string, number>();
  for (let i = 0; i < ids.length; i += LEVELS_BATCH) {
    for (const level of await repository.levelsOf(catalogueId, ids.slice(i, i + LEVELS_BATCH)))
      held.set(`${level.product_id} ${level.location_id}`, level.quantity);
  }
  const stock = new Map(matched.map(({ product }) => [product.id, product.stock]));
  const counts: PlannedCount[] = [];
  for (const { row, product, location } of matched) {
    const before = held.get(`${product.id} ${location.id}`) ?? 0;
    const after = stock.get(product.id)! + row.quantity - before;
    if (after > MAX_STOCK) {
      refuse(row.line, 'quantity', SI.aboveMax);
      continue;
    }
    stock.set(product.id, after);
    counts.push({
      line: row.line,
      productId: product.id,
      locationId: location.id,
      quantity: row.quantity,
      name: product.name,
      path: location.path,
      before,
    });
  }
  const changes = counts.filter((count) => count.quantity !== count.before);
  errors.sort((a, b) => a.line - b.line);
  return {
    changes,
    counts,
    unchanged: counts.length - changes.length,
    badRows: check.badRows + bad.size,
    errors: errors.slice(0, IMPORT_ERRORS_MAX),
  };
}

/** The first changes, as a dry run lists them. */
export const listedCounts = (plan: CountPlan): StockImportChange[] =>
  plan.changes.slice(0, IMPORT_PREVIEW_ROWS).map((count) => ({
    line: count.line,
    productId: count.productId,
    name: count.name,
    location: count.path,
    before: count.before,
    after: count.quantity,
  }));

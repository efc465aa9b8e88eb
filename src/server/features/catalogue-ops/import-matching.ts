import { IMPORT_PREVIEW_ROWS, type ImportMatches } from '../../../shared/constants.js';
import { M, T } from '../../../shared/messages.js';
import type { ImportChange, ImportError } from '../../../shared/schemas/catalogue.js';
import { centsToPrice } from '../../../shared/schemas/money.js';
import { nextTurn } from '../../lib/turns.js';
import { codeKeys, givenCodes } from '../products/index.js';
import type { ImportRow } from './csv-import.js';
import { csvColumnOf, MATCH_COLUMNS, type MatchColumn } from '../products/index.js';
import type { ProductRepository, ProductRow } from '../products/index.js';

/** A matched row that changes its product: the product as it is, and what changes. */
interface ImportUpdate {
  row: ImportRow;
  current: ProductRow;
  changes: ImportChange['fields'];
}

/** What an import will do with each valid row. */
export interface ImportPlan {
  create: ImportRow[];
  update: ImportUpdate[];
  /** Matched rows that change nothing, and with `skip` every matched row. */
  unchanged: number;
  /** Two rows that match one product: the second is an error. */
  errors: ImportError[];
}

/** Rows compared with their products in one turn of the event loop: a few milliseconds. */
const PLANNED_PER_TURN = 2_000;

/**
 * Sorts the checked rows: a row that matches one of the owner's products is, by `matches`,
 * an update (`update`: only the fields that differ; none is `unchanged`), left alone (`skip`),
 * or a new product (`copy`). Any other row is a new product.
 */
export async function planImport(
  repository: ProductRepository,
  catalogueId: string,
  rows: ImportRow[],
  matches: ImportMatches,
): Promise<ImportPlan> {
  const plan: ImportPlan = { create: [], update: [], unchanged: 0, errors: [] };
  const found = await findMatches(repository, catalogueId, rows);
  const matchedBy = new Map<string, number>();
  for (const [i, row] of rows.entries()) {
    if (i > 0 && i % PLANNED_PER_TURN === 0) await nextTurn();
    const match = found(row);
    if (!match || matches === 'copy') {
      plan.create.push(row);
      continue;
    }
    const earlier = matchedBy.get(match.product.id);
    if (earlier !== undefined) {
      plan.errors.push({
        line: row.line,
        path: csvColumnOf(match.column),
        message: T.importSameProduct(earlier),
      });
      continue;
    }
    matchedBy.set(match.product.id, row.line);
    const changes = matches === 'skip' ? [] : changedFields(match.product, row);
    if (changes.length === 0) plan.unchanged += 1;
    else plan.update.push({ row, current: match.product, changes });
  }
  return plan;
}

/** The owner's products the rows name, read a column at a time; then which one a row matches. */
async function findMatches(repository: ProductRepository, catalogueId: string, rows: ImportRow[]) {
  const byColumn = new Map<MatchColumn, Map<string, ProductRow>>();
  for (const column of MATCH_COLUMNS) {
    const values = [...new Set(rows.flatMap((row) => row.keys[column] ?? []))];
    const products = await repository.findBy(catalogueId, column, values);
    const byKey = new Map<string, ProductRow>();
    for (const product of products) {
      const key = keyOf(product, column);
      if (key !== null) byKey.set(key, product);
    }
    byColumn.set(column, byKey);
  }
  return (row: ImportRow) => {
    for (const column of MATCH_COLUMNS) {
      const value = row.keys[column];
      const product = value === undefined ? undefined : byColumn.get(column)!.get(value);
      if (product) return { column, product };
    }
    return undefined;
  };
}

/** What a match column holds for a product: its id, or the key of its SKU or barcode. */
const keyOf = (product: ProductRow, column: MatchColumn) =>
  column === 'id' ? product.id : codeKeys(product)[column];

const tagsOf = (row: ProductRow) => JSON.parse(row.tags) as string[];
const costOf = (cents: number | null) => (cents === null ? null : centsToPrice(cents));

/** The fields a row would change in its product, as the API shows them, before and after. */
function changedFields(current: ProductRow, row: ImportRow): ImportChange['fields'] {
  const fields: ImportChange['fields'] = [];
  const compare = (field: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      fields.push({ field, before, after } as ImportChange['fields'][number]);
    }
  };
  compare('name', current.name, row.name);
  compare('price', centsToPrice(current.price_cents), centsToPrice(row.priceCents));
  compare('stock', current.stock, row.stock);
  compare('description', current.description, row.description);
  if (row.tags !== undefined) compare('tags', tagsOf(current), row.tags);
  if (row.costCents !== undefined)
    compare('cost', costOf(current.cost_cents), costOf(row.costCents));
  if (row.sku !== undefined) compare('sku', current.sku, row.sku);
  if (row.barcode !== undefined) compare('barcode', current.barcode, row.barcode);
  if (row.reorderPoint !== undefined)
    compare('reorderPoint', current.reorder_point, row.reorderPoint);
  if (row.reorderQuantity !== undefined)
    compare('reorderQuantity', current.reorder_quantity, row.reorderQuantity);
  return fields;
}

/** What the report lists of the updates: the first ones, like the preview. */
export const listedChanges = (plan: ImportPlan): ImportChange[] =>
  plan.update.slice(0, IMPORT_PREVIEW_ROWS).map(({ row, current, changes }) => ({
    line: row.line,
    id: current.id,
    fields: changes,
  }));

/**
 * A row whose SKU or barcode another product of the catalogue holds (not the one the row
 * updates), or a location has as its code (of the codes the row gives its product), is an error
 * of its row, and the row is neither created nor applied.
 */
export async function refuseTakenCodes(
  repository: ProductRepository,
  catalogueId: string,
  plan: ImportPlan,
) {
  // Only the rows that carry a code: most files have none.
  const rows = [
    ...plan.create.map((row) => ({ row, current: undefined as ProductRow | undefined })),
    ...plan.update.map(({ row, current }) => ({ row, current })),
  ].filter(({ row }) => row.keys.sku_key !== undefined || row.keys.barcode_key !== undefined);
  if (rows.length === 0) return;
  const withKeys = rows.map((entry) => ({
    ...entry,
    keys: codeKeys(entry.row),
    given: givenCodes(codeKeys(entry.row), entry.current && codeKeys(entry.current)),
  }));
  const holders = await repository.codeHolders(catalogueId, {
    sku: withKeys.flatMap(({ keys }) => keys.sku_key ?? []),
    barcode: withKeys.flatMap(({ keys }) => keys.barcode_key ?? []),
  });
  const located = await repository.locationCodes(
    catalogueId,
    withKeys.map(({ given }) => given),
  );
  const refused = new Set<ImportRow>();
  const refuse = (row: ImportRow, path: 'sku' | 'barcode', message: string) => {
    plan.errors.push({ line: row.line, path, message });
    refused.add(row);
  };
  for (const { row, current, keys, given } of withKeys) {
    const self = current?.id;
    const skuHolder = keys.sku_key === null ? undefined : holders.sku.get(keys.sku_key);
    const barcodeHolder =
      keys.barcode_key === null ? undefined : holders.barcode.get(keys.barcode_key);
    const location = located(given);
    if (skuHolder !== undefined && skuHolder !== self) refuse(row, 'sku', M.skuTaken);
    else if (location.sku) refuse(row, 'sku', M.skuIsLocation);
    if (barcodeHolder !== undefined && barcodeHolder !== self) {
      refuse(row, 'barcode', M.barcodeTaken);
    } else if (location.barcode) refuse(row, 'barcode', M.barcodeIsLocation);
  }
  if (refused.size === 0) return;
  plan.create = plan.create.filter((row) => !refused.has(row));
  plan.update = plan.update.filter(({ row }) => !refused.has(row));
}

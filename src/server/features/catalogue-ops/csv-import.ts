import type { Readable } from 'node:stream';
import {
  CSV_TAG_SEPARATOR,
  IMPORT_COLUMNS,
  IMPORT_ERRORS_MAX,
  IMPORT_OPTIONAL_COLUMNS,
} from '../../../shared/constants.js';
import { M, T, V } from '../../../shared/messages.js';
import type { ImportError } from '../../../shared/schemas/catalogue.js';
import { productCreateSchema } from '../../../shared/schemas/products.js';
import { codeKeys } from '../products/index.js';
import { restoreCell } from './csv-cells.js';
import type { MatchColumn, ProductChanges } from '../products/index.js';
import { csvRows, ImportRefused, readCsvFile, type LineRecord } from './csv-records.js';

/**
 * Columns a file may have besides the required ones: the id that ties a row to a product, the
 * codes (which do too), tags, cost, the reorder point and quantity.
 */
const OPTIONAL_COLUMNS = [
  'id',
  ...IMPORT_OPTIONAL_COLUMNS,
  'tags',
  'cost',
  'reorderPoint',
  'reorderQuantity',
] as const;
type Column = (typeof IMPORT_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
/** Where each column is in the header; an optional column the file lacks is absent. */
type Columns = Record<(typeof IMPORT_COLUMNS)[number], number> &
  Partial<Record<(typeof OPTIONAL_COLUMNS)[number], number>>;
/** Every column a row's errors may name, in the order they are listed. */
const ROW_COLUMNS: readonly Column[] = [...IMPORT_COLUMNS, ...OPTIONAL_COLUMNS];

/**
 * A valid row, as the API would store it, and the line its record starts on. Its optional fields
 * are undefined when the file has no such column (an update then keeps the product's value), and
 * null for an empty cell, as in a change of a product.
 */
export interface ImportRow extends Pick<
  ProductChanges,
  'sku' | 'barcode' | 'tags' | 'costCents' | 'reorderPoint' | 'reorderQuantity'
> {
  line: number;
  name: string;
  description: string;
  priceCents: number;
  stock: number;
  /** The row's values of the columns that match existing products (non-empty ones). */
  keys: Partial<Record<MatchColumn, string>>;
}

/** A file read to its end: its valid rows, and the errors of the others. */
export interface ImportCheck {
  /** Data rows read (the header and rows without any value not counted). */
  rows: number;
  valid: ImportRow[];
  /** Rows with at least one error. */
  badRows: number;
  /** The first IMPORT_ERRORS_MAX errors, in file order (by line, then column). */
  errors: ImportError[];
}

/** Where each column is in the header (names trimmed, any case), or why it cannot be used. */
function readHeader({ line, cells }: LineRecord): Columns {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  const indexOf = (column: Column, from?: number) => names.indexOf(column.toLowerCase(), from);
  const errors: ImportError[] = [];
  const index: Partial<Record<Column, number>> = {};
  for (const column of ROW_COLUMNS) {
    const first = indexOf(column);
    const required = (IMPORT_COLUMNS as readonly string[]).includes(column);
    if (first === -1) {
      if (required) errors.push({ line, path: column, message: T.importMissingColumn(column) });
      continue;
    }
    if (indexOf(column, first + 1) !== -1) {
      errors.push({ line, path: column, message: T.importRepeatedColumn(column) });
    }
    index[column] = first;
  }
  if (errors.length > 0) throw new ImportRefused(400, errors);
  return index as Columns;
}

/** A thousands-grouped amount (1,234.50): the commas go. A comma anywhere else stays, and fails. */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/** A number written with a decimal comma ('12,50', '1.234,50'), as spreadsheets in many locales do. */
const DECIMAL_COMMA = /^-?\d[\d.]*,\d+$/;

/**
 * An amount as people write it in a spreadsheet, made into the API's form: spaces around it, a
 * leading `$` and thousands commas go. '12,50' stays and is refused: a decimal comma cannot be
 * told from a thousands one (is '1,250' 1250 or 1.25?).
 */
function plainAmount(cell: string): string {
  const text = cell.trim().replace(/^\$\s*/, '');
  return GROUPED.test(text) ? text.replaceAll(',', '') : text;
}

/**
 * Reads an import's CSV file as it arrives and checks every row with the shared product schema
 * (the API's rules: stock may be 0, price as text with at most 2 decimals), each cell first
 * restored from an export's neutralization (csv-cells.ts). Throws ImportRefused for a file that
 * cannot be imported at all. The file is always read to its end, so that one over the size limit
 * is refused as such (413) whatever else is wrong with it; `truncated` says whether it was.
 */
export async function checkImport(file: Readable, truncated: () => boolean): Promise<ImportCheck> {
  return readCsvFile(file, truncated, checkRecords);
}

async function checkRecords(records: AsyncIterable<LineRecord>): Promise<ImportCheck> {
  const check: ImportCheck = { rows: 0, valid: [], badRows: 0, errors: [] };
  const codeLines: CodeLines = { sku: new Map(), barcode: new Map() };
  for await (const { record, columns } of csvRows(records, readHeader, M.importEmpty)) {
    check.rows += 1;
    checkRow(check, record, columns, codeLines);
  }
  return check;
}

/** The line of the first row holding each code key, to refuse a code repeated in the file. */
interface CodeLines {
  sku: Map<string, number>;
  barcode: Map<string, number>;
}

function checkRow(
  check: ImportCheck,
  { line, cells }: LineRecord,
  columns: Columns,
  codeLines: CodeLines,
) {
  const cell = (column: Column) => {
    const at = columns[column];
    return at === undefined ? undefined : restoreCell(cells[at] ?? '');
  };
  const price = plainAmount(cell('price')!);
  const cost = cell('cost');
  const tags = cell('tags');
  const reorderPoint = cell('reorderPoint');
  const reorderQuantity = cell('reorderQuantity');
  const [sku, barcode] = [cell('sku'), cell('barcode')];
  const parsed = productCreateSchema.safeParse({
    name: cell('name'),
    price,
    stock: cell('stock'),
    description: cell('description'),
    sku,
    barcode,
    ...(tags === undefined ? {} : { tags: tags.split(CSV_TAG_SEPARATOR).filter(notBlank) }),
    ...(cost === undefined ? {} : { cost: plainAmount(cost) }),
    reorderPoint,
    reorderQuantity,
  });
  if (parsed.success) {
    const data = parsed.data;
    const row: ImportRow = {
      line,
      name: data.name,
      description: data.description,
      priceCents: data.price,
      stock: data.stock,
      sku: sku === undefined ? undefined : (data.sku ?? null),
      barcode: barcode === undefined ? undefined : (data.barcode ?? null),
      tags: tags === undefined ? undefined : (data.tags ?? []),
      costCents: cost === undefined ? undefined : (data.cost ?? null),
      reorderPoint: data.reorderPoint,
      reorderQuantity: data.reorderQuantity,
      keys: {},
    };
    const id = cell('id')?.trim();
    const { sku_key, barcode_key } = codeKeys(row);
    if (id) row.keys.id = id;
    if (sku_key !== null) row.keys.sku_key = sku_key;
    if (barcode_key !== null) row.keys.barcode_key = barcode_key;
    const repeated = repeatedCodes(row, codeLines);
    if (repeated.length === 0) check.valid.push(row);
    else addRowErrors(check, line, new Map(repeated));
    return;
  }
  const seen = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const path = String(issue.path[0]);
    if (!seen.has(path)) seen.set(path, issue.message);
  }
  // An amount written with a decimal comma gets the advice to use a dot; anything else that is
  // no amount gets the API's own message for the field, as the same value sent to it would.
  if (seen.get('price') === V.priceInvalid && DECIMAL_COMMA.test(price))
    seen.set('price', T.notAPrice(price));
  const plainCost = plainAmount(cost ?? '');
  if (seen.get('cost') === V.costInvalid && DECIMAL_COMMA.test(plainCost))
    seen.set('cost', T.notAPrice(plainCost));
  addRowErrors(check, line, seen);
}

/** Counts a bad row and lists its errors in the order of the columns, up to IMPORT_ERRORS_MAX. */
function addRowErrors(check: ImportCheck, line: number, messages: Map<string, string>) {
  check.badRows += 1;
  for (const column of ROW_COLUMNS) {
    const message = messages.get(column);
    if (message === undefined || check.errors.length >= IMPORT_ERRORS_MAX) continue;
    check.errors.push({ line, path: column, message });
  }
}

/** The codes of a row that an earlier row of the file has too; records the row's own codes. */
function repeatedCodes(row: ImportRow, seen: CodeLines): [Column, string][] {
  const keys = codeKeys(row);
  const repeated: [Column, string][] = [];
  const skuLine = keys.sku_key === null ? undefined : seen.sku.get(keys.sku_key);
  const barcodeLine = keys.barcode_key === null ? undefined : seen.barcode.get(keys.barcode_key);
  if (skuLine !== undefined) repeated.push(['sku', T.importSkuRepeated(skuLine)]);
  if (barcodeLine !== undefined) repeated.push(['barcode', T.importBarcodeRepeated(barcodeLine)]);
  if (repeated.length > 0) return repeated;
  if (keys.sku_key !== null) seen.sku.set(keys.sku_key, row.line);
  if (keys.barcode_key !== null) seen.barcode.set(keys.barcode_key, row.line);
  return repeated;
}

const notBlank = (text: string) => text.trim() !== '';

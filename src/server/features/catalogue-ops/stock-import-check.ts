import type { Readable } from 'node:stream';
import {
  IMPORT_ERRORS_MAX,
  MAX_STOCK,
  STOCK_IMPORT_COLUMNS,
  STOCK_IMPORT_PRODUCT_COLUMNS,
} from '../../../shared/constants.js';
import { T } from '../../../shared/messages.js';
import type { ImportError } from '../../../shared/schemas/catalogue.js';
import { SI } from '../../../shared/schemas/locations/stock-import.js';
import { codeKeys, type MatchColumn } from '../products/index.js';
import { restoreCell } from './csv-cells.js';
import { csvRows, ImportRefused, readCsvFile, type LineRecord } from './csv-records.js';

/** The columns read (any order, any case; others, such as `name`, are ignored). */
const PRODUCT_COLUMNS = STOCK_IMPORT_PRODUCT_COLUMNS;
const COLUMNS = STOCK_IMPORT_COLUMNS;
type Column = (typeof COLUMNS)[number];
type Columns = Partial<Record<Column, number>>;

/** A row whose cells are well formed: what names its product and location, and the count. */
export interface CountRow {
  line: number;
  /** The row's non-empty product keys, as an import's matching reads them. */
  keys: Partial<Record<MatchColumn, string>>;
  /** The location's path or code, as written. */
  location: string;
  quantity: number;
}

/** A file read to its end: its well-formed rows, and the errors of the others. */
export interface CountCheck {
  rows: CountRow[];
  badRows: number;
  errors: ImportError[];
}

function readHeader({ line, cells }: LineRecord): Columns {
  const names = cells.map((cell) => cell.trim().toLowerCase());
  const errors: ImportError[] = [];
  const columns: Columns = {};
  for (const column of COLUMNS) {
    const first = names.indexOf(column);
    if (first === -1) continue;
    if (names.indexOf(column, first + 1) !== -1)
      errors.push({ line, path: column, message: T.importRepeatedColumn(column) });
    columns[column] = first;
  }
  for (const column of ['location', 'quantity'] as const) {
    if (columns[column] === undefined)
      errors.push({ line, path: column, message: T.importMissingColumn(column) });
  }
  if (PRODUCT_COLUMNS.every((column) => columns[column] === undefined))
    errors.push({ line, path: 'id', message: SI.noProductColumn });
  if (errors.length > 0) throw new ImportRefused(400, errors);
  return columns;
}

const WHOLE = /^\d+$/;

/** A row's cells checked: the row, or its errors by column. */
function checkRow({ line, cells }: LineRecord, columns: Columns): CountRow | ImportError[] {
  const cell = (column: Column) => {
    const at = columns[column];
    return at === undefined ? '' : restoreCell(cells[at] ?? '').trim();
  };
  const errors: ImportError[] = [];
  const [id, sku, barcode] = PRODUCT_COLUMNS.map(cell) as [string, string, string];
  if (!id && !sku && !barcode) errors.push({ line, path: 'id', message: SI.noProductKey });
  const location = cell('location');
  if (!location) errors.push({ line, path: 'location', message: SI.noLocation });
  const text = cell('quantity');
  const quantity = WHOLE.test(text) ? Number(text) : NaN;
  if (!(quantity <= MAX_STOCK))
    errors.push({ line, path: 'quantity', message: SI.quantityInvalid });
  if (errors.length > 0) return errors;
  const keys = codeKeys({ sku: sku || null, barcode: barcode || null });
  const row: CountRow = { line, keys: {}, location, quantity };
  if (id) row.keys.id = id;
  if (keys.sku_key !== null) row.keys.sku_key = keys.sku_key;
  if (keys.barcode_key !== null) row.keys.barcode_key = keys.barcode_key;
  return row;
}

async function checkRecords(records: AsyncIterable<LineRecord>): Promise<CountCheck> {
  const check: CountCheck = { rows: [], badRows: 0, errors: [] };
  for await (const { record, columns } of csvRows(records, readHeader, SI.empty)) {
    const row = checkRow(record, columns);
    if (!Array.isArray(row)) {
      check.rows.push(row);
      continue;
    }
    check.badRows += 1;
    check.errors.push(...row.slice(0, IMPORT_ERRORS_MAX - check.errors.length));
  }
  return check;
}

/**
 * Reads a stock-by-location CSV as it arrives, under the products import's bounds (csvRecords:
 * bytes per record, cells, UTF-8; at most IMPORT_MAX_ROWS rows), and checks each row's cells.
 * Throws ImportRefused for a file that cannot be read at all; the file is always read to its end,
 * so one over the size limit is a 413 whatever else is wrong with it.
 */
export async function checkCountFile(
  file: Readable,
  truncated: () => boolean,
): Promise<CountCheck> {
  return readCsvFile(file, truncated, checkRecords);
}

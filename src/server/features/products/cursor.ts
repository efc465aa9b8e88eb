import { V } from '../../../shared/messages.js';
import type { ProductSort } from '../../../shared/constants.js';
import { ValidationError } from '../../lib/http-error.js';

type SortColumn = 'created_at' | 'name_key' | 'price_cents' | 'stock';

export interface SortOrder {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

/**
 * Every order ends with the id in the same direction, so it is total and each one is a single
 * scan of an (catalogue_id, column, id) index, forwards or backwards.
 */
export const SORT_ORDERS: Record<ProductSort, SortOrder> = {
  newest: { column: 'created_at', direction: 'desc' },
  oldest: { column: 'created_at', direction: 'asc' },
  name: { column: 'name_key', direction: 'asc' },
  'price-asc': { column: 'price_cents', direction: 'asc' },
  'price-desc': { column: 'price_cents', direction: 'desc' },
  'stock-asc': { column: 'stock', direction: 'asc' },
  'stock-desc': { column: 'stock', direction: 'desc' },
};

/** Where the previous page ended: the last row's sort key and id. */
export interface Position {
  key: string | number;
  id: string;
}

/** Opaque to clients: base64url of [sort, key, id]. The sort is inside so cursors cannot be mixed. */
export function encodeCursor(sort: ProductSort, position: Position): string {
  return Buffer.from(JSON.stringify([sort, position.key, position.id])).toString('base64url');
}

const invalid = () => new ValidationError([{ path: 'cursor', message: V.cursorInvalid }]);

export function decodeCursor(sort: ProductSort, cursor: string): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 3) throw invalid();
  const [cursorSort, key, id] = value as unknown[];
  const textKey = SORT_ORDERS[sort].column === 'name_key';
  const keyOk = textKey
    ? typeof key === 'string' && key.length <= 1000
    : typeof key === 'number' && Number.isSafeInteger(key);
  if (cursorSort !== sort || !keyOk || typeof id !== 'string' || id.length > 64) throw invalid();
  return { key: key as string | number, id };
}

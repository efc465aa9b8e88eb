import { checkBarcode, skuKey } from '../../../shared/codes.js';
import { M } from '../../../shared/messages.js';
import { uniqueViolation } from '../../infra/db/errors.js';
import { HttpError } from '../../lib/http-error.js';

/** A product's codes as stored: the SKU as typed, the barcode as it reads; none when absent. */
export interface ProductCodes {
  sku?: string | null | undefined;
  barcode?: string | null | undefined;
}

/** The keys that are unique per catalogue (migration 014): what makes two codes the same. */
export function codeKeys({ sku = null, barcode = null }: ProductCodes) {
  const checked = barcode === null ? undefined : checkBarcode(barcode);
  return {
    sku_key: sku === null ? null : skuKey(sku),
    barcode_key: checked?.ok ? checked.key : barcode,
  };
}

/** Which code a unique-index violation is about, from either engine's error; undefined if none. */
function takenCode(error: unknown): 'sku' | 'barcode' | undefined {
  const where = uniqueViolation(error) ?? '';
  if (where.includes('sku_key')) return 'sku';
  if (where.includes('barcode_key')) return 'barcode';
  return undefined;
}

/**
 * Turns the database's refusal of a code another product of the owner holds into a 409 (the
 * transaction rolled back: nothing was stored); rethrows anything else. The unique index decides,
 * so two writes of one code at the same moment give one success and one 409.
 */
export function rethrowCodeTaken(error: unknown): never {
  const taken = takenCode(error);
  if (taken === 'sku') throw new HttpError(409, M.skuTaken);
  if (taken === 'barcode') throw new HttpError(409, M.barcodeTaken);
  throw error;
}

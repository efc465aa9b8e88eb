import { checkBarcode, lookupKeys, skuKey } from '../../../shared/codes.js';
import { M } from '../../../shared/messages.js';
import { uniqueViolation } from '../../infra/db/errors.js';
import type { DB } from '../../infra/db/handle.js';
import { HttpError } from '../../lib/http-error.js';
import { nextTurn } from '../../lib/turns.js';

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

/** A product's code keys, as codeKeys makes them. */
export type CodeKeys = ReturnType<typeof codeKeys>;

/** GTIN lengths a 14-digit barcode key may be typed in, and the zeros each leaves out. */
const GTIN_LENGTHS = [14, 13, 12, 8];

/**
 * The location code keys (`code_key`: the code in lower case) that a location whose code is one
 * of these product codes would have: a SKU's key as it is, a barcode as it reads, a GTIN in each
 * of its lengths (what a location's code is compared with: features/locations/codes.ts).
 */
function locationKeysOf({ sku_key, barcode_key }: CodeKeys): string[] {
  const keys = sku_key === null ? [] : [sku_key];
  if (barcode_key === null) return keys;
  if (!/^\d{14}$/.test(barcode_key)) return [...keys, skuKey(barcode_key)];
  for (const length of GTIN_LENGTHS) {
    const padding = barcode_key.slice(0, 14 - length);
    if (/^0*$/.test(padding)) keys.push(barcode_key.slice(14 - length));
  }
  return keys;
}

/** Location code keys read in one statement: well under either engine's limit on bound values. */
const KEYS_PER_READ = 1000;

/**
 * Which of these products' codes a location of the catalogue has as its code, by the rule the
 * locations apply the other way (a SKU whatever the case, a barcode as it reads, a GTIN in any
 * of its lengths): a scan must find one thing. One read of the locations' unique
 * (catalogue, code) index for a product; an import's thousands, a thousand keys a read.
 */
export async function locationCodeClashes(
  db: DB,
  catalogueId: string,
  products: CodeKeys[],
): Promise<(keys: CodeKeys) => { sku: boolean; barcode: boolean }> {
  const wanted = [...new Set(products.flatMap(locationKeysOf))];
  const codes: string[] = [];
  for (let i = 0; i < wanted.length; i += KEYS_PER_READ) {
    if (i > 0) await nextTurn();
    const rows = await db
      .selectFrom('locations')
      .select('code')
      .where('catalogue_id', '=', catalogueId)
      .where('code_key', 'in', wanted.slice(i, i + KEYS_PER_READ))
      .execute();
    codes.push(...rows.map((row) => row.code));
  }
  const read = codes.map(lookupKeys);
  const skus = new Set(read.map((keys) => keys.skuKey));
  const barcodes = new Set(read.map((keys) => keys.barcodeKey));
  return ({ sku_key, barcode_key }) => ({
    sku: sku_key !== null && skus.has(sku_key),
    barcode: barcode_key !== null && barcodes.has(barcode_key),
  });
}

/** The codes a write gives a product: those it keeps (`before`, its codes now) left out. */
export const givenCodes = (keys: CodeKeys, before?: CodeKeys): CodeKeys => ({
  sku_key: keys.sku_key === before?.sku_key ? null : keys.sku_key,
  barcode_key: keys.barcode_key === before?.barcode_key ? null : keys.barcode_key,
});

/**
 * Which of the codes a write gives a product (those it keeps are left alone: `before`) a location
 * of the catalogue has as its code; read in the write's transaction, as the locations read a
 * product's codes in theirs.
 */
export async function givenCodesOfLocations(
  trx: DB,
  catalogueId: string,
  keys: CodeKeys,
  before?: CodeKeys,
) {
  const given = givenCodes(keys, before);
  if (given.sku_key === null && given.barcode_key === null) return { sku: false, barcode: false };
  return (await locationCodeClashes(trx, catalogueId, [given]))(given);
}

/** 409 when a location has one of the codes a write gives a product (givenCodesOfLocations). */
export async function refuseLocationCodes(...args: Parameters<typeof givenCodesOfLocations>) {
  const clash = await givenCodesOfLocations(...args);
  if (clash.sku) throw new HttpError(409, M.skuIsLocation);
  if (clash.barcode) throw new HttpError(409, M.barcodeIsLocation);
}

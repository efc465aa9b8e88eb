import { randomInt } from 'node:crypto';
import { lookupKeys, skuKey } from '../../../shared/codes.js';
import { L } from '../../../shared/schemas/locations/locations.js';
import { uniqueViolation } from '../../infra/db/errors.js';
import type { DB } from '../../infra/db/handle.js';
import { HttpError } from '../../lib/http-error.js';

/** Letters and digits a person cannot mistake for one another: no 0, 1, I or O. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A code made for a location given none: `L-` and six characters. */
function madeCode(): string {
  let code = 'L-';
  for (let i = 0; i < 6; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** What makes two locations' codes the same: case is ignored, as a SKU's. */
export const codeKey = (code: string) => skuKey(code);

/**
 * Why a code cannot be a location's in this catalogue (another location's, or a product's SKU
 * or barcode: a scan must find one thing), or undefined when it can.
 */
export async function codeProblem(
  db: DB,
  catalogueId: string,
  code: string,
  exceptLocation?: string,
): Promise<string | undefined> {
  const location = await db
    .selectFrom('locations')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where('code_key', '=', codeKey(code))
    .$if(exceptLocation !== undefined, (query) => query.where('id', '!=', exceptLocation!))
    .executeTakeFirst();
  if (location) return L.codeTaken;
  const keys = lookupKeys(code);
  const product = await db
    .selectFrom('products')
    .select('id')
    .where('catalogue_id', '=', catalogueId)
    .where((eb) =>
      eb.or([eb('sku_key', '=', keys.skuKey), eb('barcode_key', '=', keys.barcodeKey)]),
    )
    .limit(1)
    .executeTakeFirst();
  return product ? L.codeIsProduct : undefined;
}

/** Tries made codes until one is free: six characters of 32 make a clash rare, five in a row unheard of. */
export async function freeMadeCode(db: DB, catalogueId: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const code = madeCode();
    if ((await codeProblem(db, catalogueId, code)) === undefined) return code;
  }
  throw new HttpError(409, L.codeTaken);
}

/** Which of the locations' unique indexes refused a write, if one did. */
export function takenBy(error: unknown): 'code' | 'name' | undefined {
  const where = uniqueViolation(error) ?? '';
  if (where.includes('code_key') || where.includes('locations_catalogue_code')) return 'code';
  if (where.includes('locations_sibling_name') || where.includes('name_key')) return 'name';
  return undefined;
}

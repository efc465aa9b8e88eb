/**
 * Product codes: a SKU (the shop's own code) and a barcode (usually a GTIN printed on the box).
 * Pure functions shared by the server, which stores and looks codes up, and the client's forms.
 */

/** The longest SKU and barcode, after trimming. */
export const CODE_MAX = 64;

/** GTIN lengths: GTIN-8 (EAN-8), GTIN-12 (UPC-A), GTIN-13 (EAN-13), GTIN-14. */
const GTIN = /^(?:\d{8}|\d{12,14})$/;

/** Printable ASCII, space to tilde: what a barcode symbology can carry and a scanner types. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Text with no control, format, private-use, unassigned or line-separator character. */
const PRINTABLE = /^[^\p{C}\p{Zl}\p{Zp}]+$/u;

/** The GS1 check digit of a GTIN's other digits: weights 3 and 1 from the right. */
function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

const isGtinShaped = (code: string) => GTIN.test(code);

/**
 * How a GTIN reads, whichever length it was typed in: the 14-digit form without the zeros that
 * only pad it, so UPC-A `012345678905`, EAN-13 `0012345678905` and GTIN-14 `00012345678905` all
 * read as the UPC-A, and an EAN-8 stays 8 digits.
 */
function gtinDisplay(gtin14: string): string {
  if (gtin14.startsWith('000000')) return gtin14.slice(6);
  if (gtin14.startsWith('00')) return gtin14.slice(2);
  if (gtin14.startsWith('0')) return gtin14.slice(1);
  return gtin14;
}

export type BarcodeCheck =
  | { ok: true; display: string; key: string; gtin: boolean }
  | { ok: false; problem: 'empty' | 'too-long' | 'not-ascii' | 'check-digit'; expected?: number };

/**
 * A barcode as typed (trimmed), checked and normalised. `key` is what makes two codes the same
 * product: a GTIN's 14-digit form, any other code as it is. `display` is what the product shows.
 */
export function checkBarcode(text: string): BarcodeCheck {
  const code = text.trim();
  if (code === '') return { ok: false, problem: 'empty' };
  if (code.length > CODE_MAX) return { ok: false, problem: 'too-long' };
  if (!PRINTABLE_ASCII.test(code)) return { ok: false, problem: 'not-ascii' };
  if (!isGtinShaped(code)) return { ok: true, display: code, key: code, gtin: false };
  const expected = gtinCheckDigit(code.slice(0, -1));
  if (Number(code.at(-1)) !== expected) return { ok: false, problem: 'check-digit', expected };
  const key = code.padStart(14, '0');
  return { ok: true, display: gtinDisplay(key), key, gtin: true };
}

export type SkuCheck =
  | { ok: true; sku: string; key: string }
  | { ok: false; problem: 'empty' | 'too-long' | 'not-printable' };

/** A SKU as typed (trimmed), checked; `key` compares SKUs without regard to case. */
export function checkSku(text: string): SkuCheck {
  const sku = text.trim();
  if (sku === '') return { ok: false, problem: 'empty' };
  if ([...sku].length > CODE_MAX) return { ok: false, problem: 'too-long' };
  if (!PRINTABLE.test(sku)) return { ok: false, problem: 'not-printable' };
  return { ok: true, sku, key: skuKey(sku) };
}

/** A SKU compared without regard to case (and to compatibility forms such as full-width letters). */
export const skuKey = (sku: string) => sku.trim().normalize('NFKC').toLowerCase();

/**
 * What a scanned or typed code may be stored as: the barcode key it would have (a valid GTIN's
 * 14-digit form, other text as it is) and the SKU key. Either may find a product.
 */
export function lookupKeys(code: string): { barcodeKey: string; skuKey: string } {
  const barcode = checkBarcode(code);
  return { barcodeKey: barcode.ok ? barcode.key : code.trim(), skuKey: skuKey(code) };
}

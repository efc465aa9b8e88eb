import { z } from 'zod';
import { checkBarcode, checkSku } from '../codes.js';
import { T, V } from '../messages.js';

/** Why a code is refused, in the words a person reads; undefined for one that is fine or blank. */
export function skuProblem(text: string): string | undefined {
  const result = checkSku(text);
  if (result.ok || result.problem === 'empty') return undefined;
  return result.problem === 'too-long' ? V.skuMax : V.skuPrintable;
}

export function barcodeProblem(text: string): string | undefined {
  const result = checkBarcode(text);
  if (result.ok || result.problem === 'empty') return undefined;
  if (result.problem === 'too-long') return V.barcodeMax;
  if (result.problem === 'check-digit') return T.barcodeCheckDigit(result.expected!);
  return V.barcodeAscii;
}

/**
 * An optional code in the API: absent stays absent (an edit keeps the code), null or blank text
 * is "no code" (an edit clears it), other text is checked and comes out normalised.
 */
const codeField = (
  notText: string,
  problem: (text: string) => string | undefined,
  normalise: (text: string) => string,
) =>
  z
    .unknown()
    .transform((value, ctx): string | null | undefined => {
      if (value === undefined) return undefined;
      if (value === null) return null;
      if (typeof value !== 'string') {
        ctx.addIssue({ code: 'custom', message: notText });
        return z.NEVER;
      }
      if (value.trim() === '') return null;
      const message = problem(value);
      if (message === undefined) return normalise(value);
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .optional();

/** The SKU as typed, trimmed. */
export const skuField = codeField(V.skuText, skuProblem, (text) => text.trim());
/** The barcode as it reads once normalised (a GTIN without its padding zeros). */
export const barcodeField = codeField(V.barcodeText, barcodeProblem, (text) => {
  const result = checkBarcode(text);
  return result.ok ? result.display : text.trim();
});

/** A code field of a form: blank is no code, anything else follows the API's rule. */
export const formCode = (problem: (text: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
  });

import { centsText } from '../csv-export.js';
import type { LabelContent } from './pdf.js';
import { symbolFor, type LabelSymbol } from './symbols.js';

/** What a label shows of a product. */
export interface LabelProduct {
  name: string;
  sku: string | null;
  barcode: string | null;
  price_cents: number;
}

const price = (cents: number) => `$${centsText(cents).replace(/\B(?=(\d{3})+\.)/g, ',')}`;

/**
 * A product's label: its name, SKU and price, and its barcode, or without one a QR code of its
 * page.
 */
export function productLabel(product: LabelProduct, pageUrl: string): LabelContent {
  return {
    title: product.name,
    detail: product.sku === null ? '' : `SKU ${product.sku}`,
    figure: price(product.price_cents),
    symbol: symbolFor(product.barcode, pageUrl),
  };
}

/**
 * Codes up to this long print as Code 128 bars, which every scanner reads; longer ones as a QR
 * code, whose modules stay large enough to read on a 2 × 1 in label however long the code.
 */
const BARS_MAX = 16;

/** A label of a thing known by a code (a location): its name in words, and the code to scan. */
export function codeLabel(title: string, code: string): LabelContent {
  const symbol: LabelSymbol =
    code.length <= BARS_MAX
      ? { kind: 'linear', bcid: 'code128', text: code }
      : { kind: 'matrix', text: code };
  return { title, detail: symbol.kind === 'matrix' ? code : '', figure: '', symbol };
}

import bwipjs from 'bwip-js';
import { encode as encodeQr } from 'uqr';
import { checkBarcode } from '../../../../shared/codes.js';

/** A box on the page, in points, from its top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What draws a symbol: a PDF document's path and fill operations (pdfkit's). */
export interface PathCanvas {
  rect(x: number, y: number, width: number, height: number): unknown;
  fill(color: string): unknown;
}

/**
 * The symbol that carries a label's code. A GTIN is printed as retail scanners expect it:
 * EAN-8, UPC-A or EAN-13 by its length (a GTIN-14 and any other code as Code 128). A product
 * without a barcode gets a QR code of its page instead.
 */
export type LabelSymbol =
  | { kind: 'linear'; bcid: 'ean8' | 'upca' | 'ean13' | 'code128'; text: string }
  | { kind: 'matrix'; text: string };

const GTIN_SYMBOLS = { 8: 'ean8', 12: 'upca', 13: 'ean13' } as const;

export function symbolFor(barcode: string | null, pageUrl: string): LabelSymbol {
  if (barcode === null) return { kind: 'matrix', text: pageUrl };
  const checked = checkBarcode(barcode);
  const bcid =
    checked.ok && checked.gtin
      ? (GTIN_SYMBOLS[checked.display.length as keyof typeof GTIN_SYMBOLS] ?? 'code128')
      : 'code128';
  return { kind: 'linear', bcid, text: barcode };
}

/**
 * The blank space a reader needs on each side of the bars, in modules (GS1's minimum for
 * EAN/UPC; ten modules for Code 128).
 */
const QUIET_ZONES = {
  ean8: [7, 7],
  upca: [9, 9],
  ean13: [11, 7],
  code128: [10, 10],
} as const;

/** The widest bar module drawn: twice GS1's nominal 0.33 mm, so big labels do not sprawl. */
const MODULE_MAX = (0.66 * 72) / 25.4;
/** A QR code's blank border, in modules: narrower than the standard 4, the label's edge adds more. */
const QR_QUIET = 2;

/**
 * Draws the symbol as filled rectangles (vector paths, sharp at any printer resolution), fitted
 * to the box and centred in it. Returns the box the symbol's bars or modules take.
 */
export function drawSymbol(canvas: PathCanvas, symbol: LabelSymbol, box: Box): Box {
  return symbol.kind === 'linear'
    ? drawBars(canvas, symbol, box)
    : drawModules(canvas, encodeQr(symbol.text, { ecc: 'M', border: 0 }).data, box);
}

function drawBars(canvas: PathCanvas, symbol: LabelSymbol & { kind: 'linear' }, box: Box): Box {
  const [encoded] = bwipjs.raw(symbol.bcid, symbol.text, {});
  if (encoded === undefined || !('sbs' in encoded)) {
    throw new Error(`bwip-js gave no bars for ${symbol.bcid}`);
  }
  const [left, right] = QUIET_ZONES[symbol.bcid];
  const modules = encoded.sbs.reduce((sum, width) => sum + width, 0);
  const unit = Math.min(box.width / (modules + left + right), MODULE_MAX);
  let x = box.x + (box.width - modules * unit) / 2;
  const start = x;
  encoded.sbs.forEach((width, index) => {
    // Bars and spaces alternate, starting with a bar.
    if (index % 2 === 0) canvas.rect(x, box.y, width * unit, box.height);
    x += width * unit;
  });
  canvas.fill('black');
  return { x: start, y: box.y, width: modules * unit, height: box.height };
}

/**
 * A QR code's dark modules (uqr's encoder: a fraction of the CPU bwip-js's PostScript takes for
 * the same symbol, which a thousand labels add up to seconds of).
 */
function drawModules(canvas: PathCanvas, modules: boolean[][], box: Box): Box {
  const count = modules.length;
  const side = Math.min(box.width, box.height);
  const unit = side / (count + 2 * QR_QUIET);
  const left = box.x + QR_QUIET * unit;
  const top = box.y + (box.height - side) / 2 + QR_QUIET * unit;
  modules.forEach((row, y) => {
    // One rectangle per run of dark modules in a row: fewer, larger paths.
    for (let column = 0; column < count;) {
      if (!row[column]) {
        column += 1;
        continue;
      }
      let end = column;
      while (end < count && row[end]) end += 1;
      canvas.rect(left + column * unit, top + y * unit, (end - column) * unit, unit);
      column = end;
    }
  });
  canvas.fill('black');
  return { x: left, y: top, width: count * unit, height: count * unit };
}

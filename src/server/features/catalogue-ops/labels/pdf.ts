import type { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import { centsText } from '../csv-export.js';
import { cellBox, type PageLayout } from './layouts.js';
import { drawSymbol, symbolFor, type Box } from './symbols.js';

/** What a label shows of a product. */
export interface LabelProduct {
  id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  price_cents: number;
}

export interface LabelRun {
  layout: PageLayout;
  /** Copies of each product's label, one after another. */
  copies: number;
  /** Cells of the first page left empty: a sheet partly used already. */
  skip: number;
  /** The address of a product's page, for the QR code of a product without a barcode. */
  pageUrl: (id: string) => string;
}

/**
 * The standard PDF fonts read Windows-1252 only: other characters would print as garbage, so
 * they show as '?' (accented Latin letters print as they are).
 */
const printable = (text: string) => text.normalize('NFC').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const price = (cents: number) => `$${centsText(cents).replace(/\B(?=(\d{3})+\.)/g, ',')}`;

/**
 * The labels as a PDF, streamed: each label is drawn in a turn of the event loop of its own and
 * its bytes go out as they are written, so a thousand labels neither stall other requests nor sit
 * in memory whole. `onError` hears of a failure after the answer started.
 */
export function labelsPdf(
  products: LabelProduct[],
  run: LabelRun,
  onError: (error: unknown) => void,
): Readable {
  const { layout } = run;
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    info: { Title: 'Labels', Creator: 'Stockroom' },
  });
  const perPage = layout.columns * layout.rows;
  const draw = async () => {
    let cell = run.skip;
    doc.addPage({ size: [layout.page.width, layout.page.height], margin: 0 });
    for (const product of products) {
      for (let copy = 0; copy < run.copies; copy += 1) {
        // A turn of the event loop between labels: a QR code takes milliseconds to encode, and a
        // thousand of them must not hold other requests up.
        await setImmediate();
        if (cell === perPage) {
          doc.addPage({ size: [layout.page.width, layout.page.height], margin: 0 });
          cell = 0;
        }
        drawLabel(doc, product, cellBox(layout, cell), run.pageUrl(product.id));
        cell += 1;
      }
    }
    doc.end();
  };
  draw().catch((error: unknown) => {
    onError(error);
    doc.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return doc;
}

/** One label inside its cell: name, SKU and price, and the code as bars or a QR code. */
function drawLabel(doc: PDFKit.PDFDocument, product: LabelProduct, cell: Box, pageUrl: string) {
  const pad = Math.min(cell.width, cell.height) * 0.07;
  const inner = {
    x: cell.x + pad,
    y: cell.y + pad,
    width: cell.width - 2 * pad,
    height: cell.height - 2 * pad,
  };
  const nameSize = Math.min(10, Math.max(6, cell.height * 0.11));
  const smallSize = nameSize * 0.8;
  const symbol = symbolFor(product.barcode, pageUrl);
  const sku = product.sku === null ? '' : `SKU ${printable(product.sku)}`;

  if (symbol.kind === 'matrix') {
    // The QR code on the left, as tall as the label allows; the text beside it.
    const side = inner.height;
    drawSymbol(doc, symbol, { x: inner.x, y: inner.y, width: side, height: side });
    const text = { x: inner.x + side + pad / 2, width: inner.width - side - pad / 2 };
    const detailsHeight = (sku ? 2 : 1) * smallSize * 1.25;
    const nameLines = Math.max(1, Math.floor((inner.height - detailsHeight) / (nameSize * 1.2)));
    writeText(doc, printable(product.name), { ...text, y: inner.y }, nameSize, nameLines, true);
    let y = inner.y + inner.height - detailsHeight;
    if (sku) {
      writeText(doc, sku, { ...text, y }, smallSize, 1);
      y += smallSize * 1.25;
    }
    writeText(doc, price(product.price_cents), { ...text, y }, smallSize, 1, true);
    return;
  }

  // Name on top, then SKU and price on one line, then the bars with their text underneath.
  const nameLines = cell.height >= 100 ? 2 : 1;
  writeText(doc, printable(product.name), { ...inner }, nameSize, nameLines, true);
  let y = inner.y + nameLines * nameSize * 1.2;
  writeText(doc, sku, { x: inner.x, y, width: inner.width * 0.6 }, smallSize, 1);
  writeText(
    doc,
    price(product.price_cents),
    { x: inner.x, y, width: inner.width },
    smallSize,
    1,
    true,
    'right',
  );
  y += smallSize * 1.35;
  const digitsSize = smallSize;
  const barsHeight = inner.y + inner.height - y - digitsSize * 1.1;
  drawSymbol(doc, symbol, { x: inner.x, y, width: inner.width, height: barsHeight });
  writeText(
    doc,
    symbol.text,
    { x: inner.x, y: y + barsHeight + digitsSize * 0.1, width: inner.width },
    digitsSize,
    1,
    false,
    'center',
  );
}

/** Text clamped to `lines` lines of its box's width, ended by an ellipsis when it is longer. */
function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  box: { x: number; y: number; width: number },
  size: number,
  lines: number,
  bold = false,
  align: 'left' | 'right' | 'center' = 'left',
) {
  if (text === '') return;
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor('black')
    .text(text, box.x, box.y, {
      width: box.width,
      height: lines * size * 1.2,
      ellipsis: true,
      lineGap: 0,
      align,
    });
}

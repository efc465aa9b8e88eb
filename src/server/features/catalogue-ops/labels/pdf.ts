import type { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import { centsText } from '../csv-export.js';
import { cellBox, type PageLayout } from './layouts.js';
import { drawSymbol, symbolFor, type Box } from './symbols.js';
import { drawText, LabelFonts, type TextStyle } from './text.js';

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
    // Only the fonts of the scripts these names and SKUs are written in are read and embedded.
    const fonts = await LabelFonts.load(
      products.flatMap((product) => [
        { text: product.name, weight: 'bold' as const },
        { text: product.sku ?? '', weight: 'regular' as const },
      ]),
    );
    fonts.register(doc);
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
        drawLabel(doc, fonts, product, cellBox(layout, cell), run.pageUrl(product.id));
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
function drawLabel(
  doc: PDFKit.PDFDocument,
  fonts: LabelFonts,
  product: LabelProduct,
  cell: Box,
  pageUrl: string,
) {
  const writeText = (
    text: string,
    box: { x: number; y: number; width: number },
    size: number,
    lines: number,
    bold = false,
    align: TextStyle['align'] = 'start',
  ) => drawText(doc, fonts, text, box, { size, lines, weight: bold ? 'bold' : 'regular', align });
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
  const sku = product.sku === null ? '' : `SKU ${product.sku}`;

  if (symbol.kind === 'matrix') {
    // The QR code on the left, as tall as the label allows; the text beside it.
    const side = inner.height;
    drawSymbol(doc, symbol, { x: inner.x, y: inner.y, width: side, height: side });
    const text = { x: inner.x + side + pad / 2, width: inner.width - side - pad / 2 };
    const detailsHeight = (sku ? 2 : 1) * smallSize * 1.25;
    const nameLines = Math.max(1, Math.floor((inner.height - detailsHeight) / (nameSize * 1.2)));
    writeText(product.name, { ...text, y: inner.y }, nameSize, nameLines, true);
    let y = inner.y + inner.height - detailsHeight;
    if (sku) {
      writeText(sku, { ...text, y }, smallSize, 1);
      y += smallSize * 1.25;
    }
    writeText(price(product.price_cents), { ...text, y }, smallSize, 1, true);
    return;
  }

  // Name on top, then SKU and price on one line, then the bars with their text underneath.
  const nameLines = cell.height >= 100 ? 2 : 1;
  writeText(product.name, { ...inner }, nameSize, nameLines, true);
  let y = inner.y + nameLines * nameSize * 1.2;
  writeText(sku, { x: inner.x, y, width: inner.width * 0.6 }, smallSize, 1);
  writeText(
    price(product.price_cents),
    { x: inner.x, y, width: inner.width },
    smallSize,
    1,
    true,
    'end',
  );
  y += smallSize * 1.35;
  const digitsSize = smallSize;
  const barsHeight = inner.y + inner.height - y - digitsSize * 1.1;
  drawSymbol(doc, symbol, { x: inner.x, y, width: inner.width, height: barsHeight });
  writeText(
    symbol.text,
    { x: inner.x, y: y + barsHeight + digitsSize * 0.1, width: inner.width },
    digitsSize,
    1,
    false,
    'center',
  );
}

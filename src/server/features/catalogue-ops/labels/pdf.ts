import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { nextTurn } from '../../../lib/turns.js';
import { cellBox, type PageLayout } from './layouts.js';
import { drawSymbol, type Box, type LabelSymbol } from './symbols.js';
import { drawText, LabelFonts, type TextStyle } from './text.js';

/** What one label shows, whatever it labels (labels/contents.ts makes them). */
export interface LabelContent {
  /** Bold, on top: a product's name, a location's path. */
  title: string;
  /** A small line under it (a product's SKU); '' for none. */
  detail: string;
  /** Bold, at the end of that line (a product's price); '' for none. */
  figure: string;
  /** The code a scanner reads off the label. */
  symbol: LabelSymbol;
}

export interface LabelRun {
  layout: PageLayout;
  /** Copies of each label, one after another. */
  copies: number;
  /** Cells of the first page left empty: a sheet partly used already. */
  skip: number;
}

/**
 * The labels as a PDF, streamed: each label is drawn in a turn of the event loop of its own and
 * its bytes go out as they are written, so a thousand labels neither stall other requests nor sit
 * in memory whole. `onError` hears of a failure after the answer started.
 */
export function labelsPdf(
  labels: LabelContent[],
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
    // Only the fonts of the scripts these texts are written in are read and embedded.
    const fonts = await LabelFonts.load(
      labels.flatMap((label) => [
        { text: label.title, weight: 'bold' as const },
        { text: label.detail, weight: 'regular' as const },
        { text: label.figure, weight: 'bold' as const },
      ]),
    );
    fonts.register(doc);
    let cell = run.skip;
    doc.addPage({ size: [layout.page.width, layout.page.height], margin: 0 });
    for (const label of labels) {
      for (let copy = 0; copy < run.copies; copy += 1) {
        // A turn of the event loop between labels, shared with every other PDF being made: a
        // label takes milliseconds, and a thousand of them must not hold other requests up.
        await nextTurn();
        // The client is gone (the answer was destroyed): nothing more to draw.
        if (doc.destroyed) return;
        if (cell === perPage) {
          doc.addPage({ size: [layout.page.width, layout.page.height], margin: 0 });
          cell = 0;
        }
        drawLabel(doc, fonts, label, cellBox(layout, cell));
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

/** One label inside its cell: title, detail and figure, and the code as bars or a QR code. */
function drawLabel(doc: PDFKit.PDFDocument, fonts: LabelFonts, label: LabelContent, cell: Box) {
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
  const { symbol, detail, figure } = label;

  if (symbol.kind === 'matrix') {
    // The QR code on the left, as tall as the label allows; the text beside it.
    const side = inner.height;
    drawSymbol(doc, symbol, { x: inner.x, y: inner.y, width: side, height: side });
    const text = { x: inner.x + side + pad / 2, width: inner.width - side - pad / 2 };
    const detailsHeight = ((detail ? 1 : 0) + (figure ? 1 : 0)) * smallSize * 1.25;
    const nameLines = Math.max(1, Math.floor((inner.height - detailsHeight) / (nameSize * 1.2)));
    writeText(label.title, { ...text, y: inner.y }, nameSize, nameLines, true);
    let y = inner.y + inner.height - detailsHeight;
    if (detail) {
      writeText(detail, { ...text, y }, smallSize, 1);
      y += smallSize * 1.25;
    }
    if (figure) writeText(figure, { ...text, y }, smallSize, 1, true);
    return;
  }

  // Title on top, then detail and figure on one line (when there are any), then the bars with
  // their text underneath.
  const nameLines = cell.height >= 100 ? 2 : 1;
  writeText(label.title, { ...inner }, nameSize, nameLines, true);
  let y = inner.y + nameLines * nameSize * 1.2;
  if (detail || figure) {
    writeText(detail, { x: inner.x, y, width: inner.width * 0.6 }, smallSize, 1);
    writeText(figure, { x: inner.x, y, width: inner.width }, smallSize, 1, true, 'end');
    y += smallSize * 1.35;
  }
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

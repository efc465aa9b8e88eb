import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { nextTurn } from '../../lib/turns.js';
import { loadPrintKit } from '../catalogue-ops/index.js';
import type { SheetRow } from './sheet-rows.js';

/** A4 portrait, in points. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 36;
const ROW_HEIGHT = 54;
const HEADER_HEIGHT = 64;

export interface SheetHeading {
  title: string;
  /** What the count covers, and whether it is blind. */
  subtitle: string;
  /** Whether the expected quantities print (not on a blind count's sheet). */
  showExpected: boolean;
}

/**
 * A count sheet: one row per place to count, each with the product's name, SKU and location, its
 * barcode (as bars, or a QR code of the product's page without one), what is expected unless the
 * count is blind, and an empty box to write the count in. Drawn a row a turn, streamed.
 */
export function sheetPdf(
  heading: SheetHeading,
  rows: SheetRow[],
  pageUrl: (productId: string) => string,
  onError: (error: unknown) => void,
): Readable {
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    info: { Title: heading.title, Creator: 'Stockroom' },
  });
  const draw = async () => {
    const { LabelFonts, drawSymbol, drawText, symbolFor } = await loadPrintKit();
    const fonts = await LabelFonts.load([
      { text: heading.title, weight: 'bold' },
      { text: heading.subtitle, weight: 'regular' },
      ...rows.flatMap((row) => [
        { text: row.name, weight: 'bold' as const },
        { text: `${row.path} ${row.sku ?? ''}`, weight: 'regular' as const },
      ]),
    ]);
    fonts.register(doc);
    const write = (
      text: string,
      box: { x: number; y: number; width: number },
      size: number,
      bold = false,
      align: 'start' | 'end' | 'center' = 'start',
    ) =>
      drawText(doc, fonts, text, box, { size, lines: 1, weight: bold ? 'bold' : 'regular', align });
    const width = PAGE.width - 2 * MARGIN;
    const columns = { text: width * 0.42, symbol: width * 0.3, expected: width * 0.12 };
    let y = PAGE.height;
    const newPage = () => {
      doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
      write(heading.title, { x: MARGIN, y: MARGIN, width }, 14, true);
      write(heading.subtitle, { x: MARGIN, y: MARGIN + 20, width }, 9);
      y = MARGIN + HEADER_HEIGHT;
    };
    newPage();
    for (const row of rows) {
      await nextTurn();
      if (doc.destroyed) return;
      if (y + ROW_HEIGHT > PAGE.height - MARGIN) newPage();
      const x = MARGIN;
      write(row.name, { x, y: y + 4, width: columns.text - 8 }, 10, true);
      write(row.path, { x, y: y + 19, width: columns.text - 8 }, 8);
      if (row.sku !== null) write(`SKU ${row.sku}`, { x, y: y + 31, width: columns.text - 8 }, 8);
      const symbol = symbolFor(row.barcode, pageUrl(row.productId));
      const symbolBox = {
        x: x + columns.text,
        y: y + 4,
        width: symbol.kind === 'matrix' ? ROW_HEIGHT - 12 : columns.symbol - 8,
        height: ROW_HEIGHT - 12,
      };
      drawSymbol(doc, symbol, symbolBox);
      const expectedX = x + columns.text + columns.symbol;
      if (heading.showExpected) {
        write(
          String(row.expected),
          { x: expectedX, y: y + 16, width: columns.expected - 8 },
          10,
          false,
          'end',
        );
      }
      // The box a counter writes in.
      const boxX = expectedX + columns.expected;
      doc
        .rect(boxX, y + 6, width - (boxX - MARGIN), ROW_HEIGHT - 16)
        .lineWidth(0.8)
        .stroke('#000000');
      doc
        .moveTo(MARGIN, y + ROW_HEIGHT - 2)
        .lineTo(PAGE.width - MARGIN, y + ROW_HEIGHT - 2)
        .lineWidth(0.3)
        .stroke('#999999');
      y += ROW_HEIGHT;
    }
    doc.end();
  };
  draw().catch((error: unknown) => {
    onError(error);
    doc.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return doc;
}

import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { nextTurn } from '../../lib/turns.js';
import { loadPrintKit } from '../catalogue-ops/index.js';

/** A4 portrait, in points. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 42;
const ROW_HEIGHT = 30;
/** Lines drawn a turn of the event loop: a few milliseconds of text layout. */
const LINES_A_TURN = 20;

/** What the order's PDF prints: who orders, from whom, and each line with its total. */
export interface OrderSheet {
  /** The catalogue's name: who is ordering. */
  buyer: string;
  number: string;
  supplier: { name: string; email: string | null; phone: string | null };
  /** yyyy-mm-dd, or null when no date is expected. */
  expected: string | null;
  /** When it was made, yyyy-mm-dd. */
  date: string;
  notes: string | null;
  lines: {
    supplierSku: string | null;
    sku: string | null;
    name: string | null;
    quantity: number;
    unitCostCents: number;
  }[];
}

/** Cents as dollars with a thousands separator, exact however large: $1,234.50. */
export function dollarsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  const whole = (abs / 100n).toLocaleString('en-US');
  return `${sign}$${whole}.${String(abs % 100n).padStart(2, '0')}`;
}

export const lineTotalCents = (line: { quantity: number; unitCostCents: number }) =>
  BigInt(line.quantity) * BigInt(line.unitCostCents);

/**
 * A purchase order as the supplier receives it: the buyer, the order's number and dates, the
 * supplier, then one row per line (the supplier's SKU, the product, the quantity, the unit cost
 * and the line's total) and the order's total. Drawn a few lines a turn, streamed.
 */
export function orderPdf(sheet: OrderSheet, onError: (error: unknown) => void): Readable {
  const title = `Purchase order ${sheet.number}`;
  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    info: { Title: `${title} · ${sheet.buyer}`, Creator: 'Stockroom' },
  });
  const totalCents = sheet.lines.reduce((sum, line) => sum + lineTotalCents(line), 0n);
  const units = sheet.lines.reduce((sum, line) => sum + BigInt(line.quantity), 0n);
  const heading = [
    `Supplier: ${sheet.supplier.name}`,
    ...(sheet.supplier.email ? [sheet.supplier.email] : []),
    ...(sheet.supplier.phone ? [sheet.supplier.phone] : []),
    `Date: ${sheet.date}`,
    `Expected: ${sheet.expected ?? 'not set'}`,
  ];
  const draw = async () => {
    const { LabelFonts, drawText } = await loadPrintKit();
    const fonts = await LabelFonts.load([
      { text: `${sheet.buyer} ${title}`, weight: 'bold' },
      { text: heading.join(' '), weight: 'regular' },
      { text: sheet.notes ?? '', weight: 'regular' },
      ...sheet.lines.flatMap((line) => [
        { text: line.name ?? '', weight: 'bold' as const },
        { text: `${line.supplierSku ?? ''} ${line.sku ?? ''}`, weight: 'regular' as const },
      ]),
    ]);
    fonts.register(doc);
    const write = (
      text: string,
      box: { x: number; y: number; width: number },
      size: number,
      options: { bold?: boolean; align?: 'start' | 'end'; lines?: number } = {},
    ) =>
      drawText(doc, fonts, text, box, {
        size,
        lines: options.lines ?? 1,
        weight: options.bold ? 'bold' : 'regular',
        align: options.align ?? 'start',
      });
    const width = PAGE.width - 2 * MARGIN;
    // Supplier's SKU, product, quantity, unit cost, total.
    const widths = [0.2, 0.38, 0.1, 0.15, 0.17].map((share) => share * width);
    const xs = widths.map((_, index) => MARGIN + widths.slice(0, index).reduce((a, b) => a + b, 0));
    const cell = (index: number, text: string, y: number, bold = false) =>
      write(text, { x: xs[index]! + 2, y, width: widths[index]! - 4 }, 9, {
        bold,
        align: index >= 2 ? 'end' : 'start',
      });
    const rule = (y: number, weight = 0.3) =>
      doc
        .moveTo(MARGIN, y)
        .lineTo(PAGE.width - MARGIN, y)
        .lineWidth(weight)
        .stroke('#777777');
    let y = 0;
    let page = 0;
    const tableHeader = () => {
      ['Supplier SKU', 'Product', 'Quantity', 'Unit cost', 'Total'].forEach((text, index) =>
        cell(index, text, y, true),
      );
      y += 16;
      rule(y - 3, 0.8);
    };
    const newPage = () => {
      doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
      page += 1;
      y = MARGIN;
      write(sheet.buyer, { x: MARGIN, y, width }, 16, { bold: true });
      y += 24;
      write(page === 1 ? title : `${title} (continued)`, { x: MARGIN, y, width }, 13, {
        bold: true,
      });
      y += 24;
      if (page === 1) {
        for (const text of heading) {
          write(text, { x: MARGIN, y, width }, 10);
          y += 14;
        }
        if (sheet.notes) {
          write(`Notes: ${sheet.notes}`, { x: MARGIN, y, width }, 9, { lines: 4 });
          y += 4 * 12;
        }
        y += 10;
      }
      tableHeader();
    };
    newPage();
    for (const [index, line] of sheet.lines.entries()) {
      if (index % LINES_A_TURN === 0) await nextTurn();
      if (doc.destroyed) return;
      if (y + ROW_HEIGHT > PAGE.height - MARGIN - 40) newPage();
      cell(0, line.supplierSku ?? '', y);
      cell(1, line.name ?? '(deleted product)', y, true);
      if (line.sku !== null)
        write(`SKU ${line.sku}`, { x: xs[1]! + 2, y: y + 12, width: widths[1]! - 4 }, 7);
      cell(2, line.quantity.toLocaleString('en-US'), y);
      cell(3, dollarsText(BigInt(line.unitCostCents)), y);
      cell(4, dollarsText(lineTotalCents(line)), y);
      rule(y + ROW_HEIGHT - 6);
      y += ROW_HEIGHT;
    }
    y += 4;
    cell(1, 'Total', y, true);
    cell(2, units.toLocaleString('en-US'), y, true);
    cell(4, dollarsText(totalCents), y, true);
    doc.end();
  };
  draw().catch((error: unknown) => {
    onError(error);
    doc.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return doc;
}

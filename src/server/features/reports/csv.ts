import type { Readable } from 'node:stream';
import { z } from 'zod';
import { csvStream } from '../catalogue-ops/index.js';

/** Rows of a report written in one chunk. */
const PAGE_ROWS = 500;

/** Cents as dollars with two decimals, exactly however large: -1234n → "-12.34". */
export function dollars(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/**
 * A report as a CSV file, written like the catalogue's export (csv-writer.ts): RFC 4180 with CRLF,
 * UTF-8 with a BOM, and a text that starts like a formula gets a ' in front. Streamed in pages,
 * so a long report is written a chunk at a time rather than in one block of the event loop.
 */
export function reportCsv(
  columns: { key: string; header: string }[],
  rows: Record<string, string | number>[],
  onError: (error: unknown) => void,
): Readable {
  function* pages() {
    for (let start = 0; start < rows.length; start += PAGE_ROWS) {
      yield rows
        .slice(start, start + PAGE_ROWS)
        .map((row) => columns.map(({ key }) => row[key] ?? ''));
    }
  }
  return csvStream(
    columns.map(({ header }) => header),
    pages(),
    onError,
  );
}

export const csvResponse = {
  200: {
    description: 'The report as a CSV file, as an attachment',
    content: { 'text/csv': { schema: z.unknown().describe('UTF-8 with a BOM, CRLF') } },
  },
};

export const CSV_NOTE =
  "RFC 4180 CSV (UTF-8 with a BOM, CRLF), columns named in plain English; a text that starts with =, +, -, @, a tab or a carriage return gets a ' in front, so that a spreadsheet does not run it.";

/** What a report of products adds after the product's name (ReportQueries.codesOf). */
export const CODE_COLUMNS = [
  { key: 'sku', header: 'SKU' },
  { key: 'barcode', header: 'Barcode' },
  { key: 'cost', header: 'Cost' },
];

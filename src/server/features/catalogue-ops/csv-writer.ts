import { Readable } from 'node:stream';
import { neutralizeCell } from './csv-cells.js';

/** A cell RFC 4180 wants quoted: one holding a comma, a quote, or a line break (CR or LF alone too). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A cell as the exports write it: a number as it is; a text neutralized when it starts like a
 * formula (csv-cells.ts), then quoted when it must be, its quotes doubled.
 */
function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = neutralizeCell(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record and its CRLF. */
const csvRecord = (cells: readonly (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export type CsvRecord = readonly (string | number)[];

/**
 * A CSV file as a stream: UTF-8 with a BOM (so spreadsheets read it as such), the header, then
 * the records, one chunk per page of them. Pages are pulled only as the stream is read, so a
 * client that reads slowly holds back the reads behind them, and a page is all that is in memory.
 * Written here rather than by csv-stringify, whose per-cell options took four times as long as
 * reading the rows (the export must keep up with the database). `onError` hears of a failure
 * after the answer started, which can only cut it short.
 */
export function csvStream(
  header: readonly string[],
  pages: AsyncIterable<CsvRecord[]> | Iterable<CsvRecord[]>,
  onError: (error: unknown) => void = () => {},
): Readable {
  async function* chunks() {
    yield Buffer.from(`\ufeff${csvRecord(header)}`);
    try {
      for await (const page of pages) {
        let chunk = '';
        for (const record of page) chunk += csvRecord(record);
        if (chunk !== '') yield Buffer.from(chunk);
      }
    } catch (error) {
      onError(error);
      throw error;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

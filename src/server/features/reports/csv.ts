import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { neutralizeCell } from '../catalogue-ops/index.js';

/** Cents as dollars with two decimals, exactly however large: -1234n → "-12.34". */
export function dollars(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/**
 * A report as a CSV file, written like the catalogue's export: RFC 4180 with CRLF, UTF-8 with a
 * BOM, and a text that starts like a formula gets a ' in front (csv-cells.ts). Streamed, so a
 * long report is written a chunk at a time rather than in one block of the event loop.
 */
export function reportCsv(
  columns: { key: string; header: string }[],
  rows: Record<string, string | number>[],
  onError: (error: unknown) => void,
): Readable {
  const csv = stringify({
    bom: true,
    header: true,
    columns,
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    cast: { string: neutralizeCell },
  });
  pipeline(Readable.from(rows), csv).catch(onError);
  return csv;
}

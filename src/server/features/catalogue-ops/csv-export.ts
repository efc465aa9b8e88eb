import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { CSV_TAG_SEPARATOR, EXPORT_COLUMNS } from '../../../shared/constants.js';
import { neutralizeCell } from './csv-cells.js';
import type { ExportRow } from '../products/index.js';

/** A price in cents as the CSV shows it: dollars with two decimals, never through a float. */
export const centsText = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * The CSV of a catalogue (RFC 4180: CRLF, quotes where needed; UTF-8 with a BOM so that
 * spreadsheets read it as such), from pages of rows. Formula-like cells are neutralized
 * (csv-cells.ts). Rows are pulled from `pages` only as the stream is read: a client that reads
 * slowly holds back the database reads, and at most a page or so of rows is in memory.
 * `imageUrl` gives a stored image's URL (empty for none).
 */
export function csvExport(
  pages: AsyncIterable<ExportRow[]>,
  imageUrl: (key: string | null) => string,
  onError: (error: unknown) => void = () => {},
): Readable {
  async function* records() {
    for await (const page of pages) {
      for (const row of page) {
        yield {
          id: row.id,
          name: row.name,
          price: centsText(row.price_cents),
          stock: row.stock,
          description: row.description,
          image: imageUrl(row.image_key),
          createdAt: new Date(row.created_at).toISOString(),
          updatedAt: new Date(row.updated_at).toISOString(),
          sku: row.sku ?? '',
          barcode: row.barcode ?? '',
          tags: (JSON.parse(row.tags) as string[]).join(`${CSV_TAG_SEPARATOR} `),
          cost: row.cost_cents === null ? '' : centsText(row.cost_cents),
          // Blank: the catalogue's.
          reorderPoint: row.reorder_point ?? '',
        };
      }
    }
  }
  const csv = stringify({
    bom: true,
    header: true,
    columns: [...EXPORT_COLUMNS],
    record_delimiter: 'windows',
    // csv-stringify quotes a cell holding the record delimiter (CRLF), not a bare LF or CR; RFC 4180
    // and every reader that takes LF for a record's end want those quoted too.
    quoted_match: /[\r\n]/,
    cast: { string: neutralizeCell },
  });
  // A failure half-way (the database gone) can only cut the answer short: the status is sent.
  pipeline(Readable.from(records()), csv).catch(onError);
  return csv;
}

/**
 * Reads the first page before anything is sent, so that what fails at once (a search too long,
 * the database unreachable) is answered with its status; then streams all of them.
 */
export async function startCsvExport(
  pages: AsyncGenerator<ExportRow[]>,
  imageUrl: (key: string | null) => string,
  onError?: (error: unknown) => void,
): Promise<Readable> {
  const first = await pages.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    yield* pages;
  }
  return csvExport(all(), imageUrl, onError);
}

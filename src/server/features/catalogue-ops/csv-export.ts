import type { Readable } from 'node:stream';
import { CSV_TAG_SEPARATOR, EXPORT_COLUMNS } from '../../../shared/constants.js';
import { csvStream } from './csv-writer.js';
import type { ExportRow } from '../products/index.js';

/** A price in cents as the CSV shows it: dollars with two decimals, never through a float. */
export const centsText = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * The CSV of a catalogue (RFC 4180, csv-writer.ts), from pages of rows, with the header
 * EXPORT_COLUMNS. `imageUrl` gives a stored image's URL (empty for none).
 */
export function csvExport(
  pages: AsyncIterable<ExportRow[]>,
  imageUrl: (key: string | null) => string,
  onError: (error: unknown) => void = () => {},
): Readable {
  async function* records() {
    for await (const page of pages) {
      yield page.map((row) => [
        row.id,
        row.name,
        centsText(row.price_cents),
        row.stock,
        row.description,
        imageUrl(row.image_key),
        new Date(row.created_at).toISOString(),
        new Date(row.updated_at).toISOString(),
        row.sku ?? '',
        row.barcode ?? '',
        (JSON.parse(row.tags) as string[]).join(`${CSV_TAG_SEPARATOR} `),
        row.cost_cents === null ? '' : centsText(row.cost_cents),
        // Blank: the catalogue's.
        row.reorder_point ?? '',
        // Blank: none.
        row.reorder_quantity ?? '',
      ]);
    }
  }
  return csvStream(EXPORT_COLUMNS, records(), onError);
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
  return csvExport(await primed(pages), imageUrl, onError);
}

/** The pages, the first one read already: what fails at once fails before an answer starts. */
export async function primed<T>(pages: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await pages.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    yield* pages;
  }
  return all();
}

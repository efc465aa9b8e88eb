import type { Readable } from 'node:stream';
import { STOCK_BY_LOCATION_COLUMNS } from '../../../shared/constants.js';
import type { ExportRow } from '../products/index.js';
import { primed } from './csv-export.js';
import { csvStream, type CsvRecord } from './csv-writer.js';

/** A product's quantity in one location. */
export interface Level {
  product_id: string;
  location_id: string;
  quantity: number;
}

/**
 * The stock-by-location CSV: for each page of products (in the list's order), their quantities
 * read in one statement, one record per location holding some, by path. The locations' paths are
 * read once (a catalogue has at most 10,000); one page of products is in memory at a time.
 */
export async function stockByLocationCsv(
  products: AsyncGenerator<ExportRow[]>,
  levelsOf: (productIds: string[]) => Promise<Level[]>,
  paths: ReadonlyMap<string, string>,
  onError: (error: unknown) => void,
): Promise<Readable> {
  async function* records(): AsyncGenerator<CsvRecord[]> {
    for await (const page of products) {
      const held = new Map<string, Level[]>();
      for (const level of await levelsOf(page.map((row) => row.id))) {
        const levels = held.get(level.product_id);
        if (levels) levels.push(level);
        else held.set(level.product_id, [level]);
      }
      const pathOf = (level: Level) => paths.get(level.location_id) ?? '';
      yield page.flatMap((row) =>
        (held.get(row.id) ?? [])
          .map((level) => ({ path: pathOf(level), quantity: level.quantity }))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
          .map(({ path, quantity }) => [
            row.id,
            row.sku ?? '',
            row.barcode ?? '',
            row.name,
            path,
            quantity,
          ]),
      );
    }
  }
  return csvStream(STOCK_BY_LOCATION_COLUMNS, await primed(records()), onError);
}

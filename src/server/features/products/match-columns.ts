/**
 * What ties an import's row to an existing product, in order: its id, then the key of its SKU,
 * then the key of its barcode (codes.ts: what makes two codes the same). The first one the row
 * fills that names one of the catalogue's products decides. Each is a column of the products table.
 */
export const MATCH_COLUMNS = ['id', 'sku_key', 'barcode_key'] as const;
export type MatchColumn = (typeof MATCH_COLUMNS)[number];

/** The CSV column a match column comes from, which an error about it names. */
export const csvColumnOf = (column: MatchColumn) =>
  column === 'id' ? 'id' : column === 'sku_key' ? 'sku' : 'barcode';

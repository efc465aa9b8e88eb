/**
 * The columns that tie an import's row to an existing product, in order: the first one the row
 * fills that names one of the owner's products decides. Each is a column of both the CSV file
 * and the products table (and of the API's product); a new one is one more entry here.
 */
export const MATCH_COLUMNS = ['id'] as const;
export type MatchColumn = (typeof MATCH_COLUMNS)[number];

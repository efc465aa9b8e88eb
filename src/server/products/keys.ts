/**
 * Text folded for sorting and searching: compatibility-normalised, accents removed, lower case.
 * Computed in the app so both engines compare the same bytes ("Émile" sorts and matches as "emile").
 */
export const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Capped so that a cursor carrying it stays small; longer names tie-break by id past the cap. */
export const nameKey = (name: string) => fold(name).slice(0, 200);

export const searchKey = (name: string, description: string) =>
  `${fold(name)}\n${fold(description)}`;

/** A LIKE pattern that finds `query` anywhere, with `%`, `_` and `\` taken literally. */
export const containsPattern = (query: string) =>
  `%${fold(query).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

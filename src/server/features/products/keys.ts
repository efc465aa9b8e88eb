import { V } from '../../../shared/messages.js';
import { ValidationError } from '../../lib/http-error.js';

/**
 * Text folded for sorting and searching: compatibility-normalised, accents removed, lower case.
 * Computed in the app so both engines compare the same bytes ("Émile" sorts and matches as "emile").
 * Folding can make text much longer (U+FDFA alone becomes 18 characters), so every limit that
 * bounds the cost of a search is applied to folded text, never to what was typed.
 */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Capped so that a cursor carrying it stays small; longer names tie-break by id past the cap. */
export const nameKey = (name: string) => fold(name).slice(0, 200);

/** The longest search, folded (UTF-16 units, as typed text is counted). */
const SEARCH_QUERY_MAX = 200;

/**
 * How much of each folded field is searchable: twice the field's input limit, so text whose
 * compatibility form at most doubles (Latin, Greek, Cyrillic, Arabic, CJK, Indic, ligatures) is
 * searchable to its last character, while characters that spell out as many as 18 stop at the cap.
 * This bounds what checking one row can cost (ADR 007). Hangul decomposes into 2 or 3 letters, so
 * Korean is searchable up to about 3,300 syllables of a description or 130 of a name.
 */
export const SEARCH_NAME_MAX = 400;
export const SEARCH_DESCRIPTION_MAX = 10_000;

/** The first `max` UTF-16 units, never ending on half of a surrogate pair. */
function cap(text: string, max: number) {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** How much of each folded code is searchable: twice the longest code. */
const SEARCH_CODE_MAX = 128;

/**
 * The text a search looks in: name, description and the product's codes (the SKU and the
 * barcode's key, whose 14 digits hold every shorter form of a GTIN), one a line.
 */
export const searchKey = (
  name: string,
  description: string,
  codes: readonly (string | null)[] = [],
) =>
  [
    cap(fold(name), SEARCH_NAME_MAX),
    cap(fold(description), SEARCH_DESCRIPTION_MAX),
    ...codes.flatMap((code) => (code === null ? [] : [cap(fold(code), SEARCH_CODE_MAX)])),
  ].join('\n');

/**
 * The folded form of a search, or a 400 on `q` when it is longer than SEARCH_QUERY_MAX once
 * folded. Empty when nothing is left to look for (then every product matches, as before).
 */
export function searchText(query: string): string {
  const folded = fold(query);
  if (folded.length > SEARCH_QUERY_MAX) {
    throw new ValidationError([{ path: 'q', message: V.searchTooLong }]);
  }
  return folded;
}

/**
 * An FTS5 query that every text containing `folded` satisfies: all of its distinct trigrams (each
 * quoted, so nothing in it is query syntax). Undefined for fewer than 3 characters, which have no
 * trigram, and when no trigram is usable. It only narrows the rows to check: a row can hold every trigram without the whole text.
 */
export function trigramQuery(folded: string): string | undefined {
  const chars = [...folded];
  if (chars.length < 3) return undefined;
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i += 1) {
    const trigram = chars.slice(i, i + 3).join('');
    // FTS5 reads its query as a C string: a NUL would end it. Leaving a trigram out only widens.
    if (!trigram.includes('\0')) trigrams.add(trigram);
  }
  if (trigrams.size === 0) return undefined;
  return [...trigrams].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * Cells a spreadsheet would run as a formula start with one of these (OWASP, "CSV injection"):
 * `=`, `+`, `-`, `@`, tab or carriage return.
 */
const FORMULA_FIRST = '[=+\\-@\\t\\r]';

/** A formula-like cell, or one an export already escaped: any quotes, then a formula character. */
const NEEDS_QUOTE = new RegExp(`^'*${FORMULA_FIRST}`);
/** A cell an export escaped: at least one quote, then a formula character. */
const ESCAPED = new RegExp(`^'+${FORMULA_FIRST}`);

/**
 * What an export writes for a text: with a `'` in front when the text starts like a formula, so a
 * spreadsheet shows it as text instead of running it (OWASP's advice). A text that starts with
 * quotes and then a formula character gets one more quote, so restoreCell can tell the two apart.
 */
export const neutralizeCell = (text: string) => (NEEDS_QUOTE.test(text) ? `'${text}` : text);

/**
 * What an import reads from a cell: the exact inverse of neutralizeCell. The first `'` goes when
 * quotes and then a formula character follow it; any other cell stays as it is. So an export
 * imported again gives back every text exactly, and `'plain` or `It's` are left alone.
 */
export const restoreCell = (cell: string) => (ESCAPED.test(cell) ? cell.slice(1) : cell);

import LineBreaker from 'linebreak';

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
export const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';

/**
 * The text cut where a line may end (after a space, between CJK characters); a piece wider than a
 * line is cut between words (Intl.Segmenter finds them in Thai, which uses no spaces), then
 * between grapheme clusters. Each piece with its width.
 */
function breakablePieces(text: string, maxWidth: number, measure: (text: string) => number) {
  const pieces: { text: string; width: number; trimmed: number }[] = [];
  const add = (piece: string, width = measure(piece)) => {
    const trimmed = piece.trimEnd();
    const trailing = piece.slice(trimmed.length);
    pieces.push({ text: piece, width, trimmed: trailing ? width - measure(trailing) : width });
  };
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let opportunity = breaker.nextBreak(); opportunity; opportunity = breaker.nextBreak()) {
    const piece = text.slice(last, opportunity.position);
    last = opportunity.position;
    const width = measure(piece);
    if (width <= maxWidth || measure(piece.trimEnd()) <= maxWidth) {
      add(piece, width);
      continue;
    }
    for (const { segment: word } of words.segment(piece)) {
      const wordWidth = measure(word);
      if (wordWidth <= maxWidth) add(word, wordWidth);
      else for (const { segment } of graphemes.segment(word)) add(segment);
    }
  }
  return pieces;
}

/**
 * At most `maxLines` lines of at most `maxWidth`, broken where breakablePieces allows; text left
 * over ends the last line with an ellipsis. A line's width is the sum of its pieces' widths.
 */
export function breakLines(
  text: string,
  maxWidth: number,
  maxLines: number,
  measure: (text: string) => number,
): string[] {
  const pieces = breakablePieces(text, maxWidth, measure);
  const lines: string[] = [];
  let line = '';
  let width = 0;
  let next = 0;
  while (next < pieces.length && lines.length < maxLines) {
    const piece = pieces[next]!;
    if (line === '' || width + piece.trimmed <= maxWidth) {
      if (line !== '' || piece.text.trim() !== '') {
        line += piece.text;
        width += piece.width;
      }
      next += 1;
      continue;
    }
    lines.push(line.trimEnd());
    line = '';
    width = 0;
  }
  if (line !== '' && lines.length < maxLines) lines.push(line.trimEnd());
  if (next < pieces.length) {
    // Clusters come off the end until the rest and the ellipsis fit; widths of single clusters
    // are what pdfkit's layout cache holds already.
    const last = [...graphemes.segment(lines[maxLines - 1] ?? '')].map(({ segment }) => segment);
    const widths = last.map(measure);
    let width = widths.reduce((sum, each) => sum + each, measure(ELLIPSIS));
    while (last.length > 0 && (width > maxWidth || /\s$/u.test(last.at(-1)!))) {
      last.pop();
      width -= widths.pop()!;
    }
    lines[maxLines - 1] = `${last.join('')}${ELLIPSIS}`;
  }
  return lines;
}

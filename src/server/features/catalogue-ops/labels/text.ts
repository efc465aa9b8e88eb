import bidiExport from 'bidi-js';
import { breakLines, graphemes } from './line-breaks.js';
import {
  isEmoji,
  loadFont,
  scriptFamily,
  sharedFamilies,
  type Family,
  type LoadedFont,
  type Weight,
} from './fonts.js';

// bidi-js is CommonJS whose types declare an ES default export: Node hands over the factory.
const bidi = (bidiExport as unknown as typeof bidiExport.default)();

/** Scripts whose runs fontkit lays out right to left by itself (it reverses their glyphs). */
const RIGHT_TO_LEFT_FAMILIES = new Set<Family>(['arabic', 'hebrew', 'thaana']);

/**
 * Text whose glyphs a PDF reader cannot read back in order by their positions: a Devanagari vowel
 * sign drawn before the consonant it follows, Thai marks stacked above their letter; or not at
 * all: an emoji sequence drawn as one glyph, which may be its first pictograph's (a thumb with
 * its skin tone, in black and white). Such runs carry their text as ActualText. Right-to-left
 * runs carry none: readers such as poppler put their drawn glyphs back in reading order
 * themselves, and would turn an ActualText around.
 */
const DRAWN_OUT_OF_ORDER =
  /[\p{Mn}\p{Mc}\p{Me}\p{Emoji_Modifier}\p{Regional_Indicator}\u200D\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}\p{sc=Thai}\p{sc=Lao}\p{sc=Tibetan}\p{sc=Myanmar}\p{sc=Khmer}]/u;

/**
 * The text cut into what takes one font: an emoji sequence whole (a keycap's digit, a flag's two
 * letters), every other character on its own.
 */
function* units(text: string): Generator<string> {
  if (!/[\p{Emoji_Presentation}\uFE0F\u20E3]/u.test(text)) {
    yield* text;
    return;
  }
  for (const { segment } of graphemes.segment(text)) {
    if (isEmoji(segment)) yield segment;
    else yield* segment;
  }
}

/**
 * The bidirectional levels of a text's UTF-16 code units. bidi-js reads a text a code unit at a
 * time, and takes each half of a character beyond the BMP for a left-to-right letter: an emoji,
 * neutral, would split a right-to-left phrase around it. Emoji reach it as U+FFFD, neutral too.
 */
function embeddingLevels(text: string, direction?: 'ltr' | 'rtl') {
  return bidi.getEmbeddingLevels(text.replace(ASTRAL_EMOJI, '\uFFFD\uFFFD'), direction);
}
const ASTRAL_EMOJI = /(?=[\u{10000}-\u{10FFFF}])[\p{Extended_Pictographic}\p{Emoji_Modifier}]/gu;

/** A text a label will print and the weight it prints in: what decides which fonts to load. */
export interface TextNeed {
  text: string;
  weight: Weight;
}

/**
 * The fonts of one document: Noto Sans always, and each other script's font once a text of the
 * document needs it. Picks the font of every character: its script's font, else the font of the
 * character before it when that has the glyph (a space or a comma keeps its neighbours' font),
 * else Noto Sans, else a font of a script that shares the character (CJK punctuation).
 */
export class LabelFonts {
  private constructor(private readonly fonts: Map<string, LoadedFont>) {}

  static async load(needs: TextNeed[]): Promise<LabelFonts> {
    const fonts = new Map<string, LoadedFont>();
    const add = async (family: Family, weight: Weight) => {
      const font = await loadFont(family, weight);
      fonts.set(font.name, font);
      return font;
    };
    const base = { regular: await add('base', 'regular'), bold: await add('base', 'bold') };
    const wanted = new Set<string>();
    for (const { text, weight } of needs) {
      for (const char of units(text)) {
        const family = isEmoji(char)
          ? 'emoji'
          : (scriptFamily(char) ??
            (base[weight].font.hasGlyphForCodePoint(char.codePointAt(0)!)
              ? undefined
              : sharedFamilies(char)[0]));
        if (family) wanted.add(`${family}:${weight}`);
      }
    }
    for (const key of wanted) {
      const [family, weight] = key.split(':') as [Family, Weight];
      await add(family, weight);
    }
    return new LabelFonts(fonts);
  }

  /**
   * Makes every font known to the document under its name (pdfkit embeds only what is drawn).
   * pdfkit takes a parsed fontkit font as well as a file: given the process's one, it does not
   * parse the font's tables again for every document (a quarter of a second for Noto Sans).
   */
  register(doc: PDFKit.PDFDocument) {
    for (const { name, font } of this.fonts.values()) {
      doc.registerFont(name, font as unknown as PDFKit.Mixins.PDFFontSource);
    }
  }

  private get(family: Family, weight: Weight) {
    return this.fonts.get(`${family}-${weight}`);
  }

  /** The font of a character, or of an emoji sequence. */
  fontOf(char: string, weight: Weight, previous: LoadedFont | undefined): LoadedFont {
    const base = this.get('base', weight)!;
    const family = isEmoji(char) ? 'emoji' : scriptFamily(char);
    if (family) return this.get(family, weight) ?? base;
    const codePoint = char.codePointAt(0)!;
    // Not the emoji font's: its space is as wide as an emoji.
    if (previous?.family !== 'emoji' && previous?.font.hasGlyphForCodePoint(codePoint)) {
      return previous;
    }
    if (base.font.hasGlyphForCodePoint(codePoint)) return base;
    for (const shared of sharedFamilies(char)) {
      const font = this.get(shared, weight);
      if (font?.font.hasGlyphForCodePoint(codePoint)) return font;
    }
    return base;
  }
}

export interface TextStyle {
  size: number;
  /** Lines at most; the last one ends with an ellipsis when the text is longer. */
  lines: number;
  weight: Weight;
  /** `start` is the left for a left-to-right text and the right for an Arabic or Hebrew one. */
  align: 'start' | 'end' | 'center';
}

/** A stretch of a line drawn in one font at one bidirectional level. */
interface Run {
  text: string;
  font: LoadedFont;
  level: number;
  /** Whether fontkit itself lays it out right to left. */
  reversedByShaper: boolean;
}

/**
 * Writes `text` in its box: wrapped where the Unicode line breaking algorithm allows (between
 * CJK characters too, never before a closing bracket), clamped to `style.lines` lines, each line
 * in the visual order of the Unicode bidirectional algorithm and shaped by fontkit (Arabic
 * joining, Indic clusters), so that the PDF's text reads back as it was written.
 */
export function drawText(
  doc: PDFKit.PDFDocument,
  fonts: LabelFonts,
  text: string,
  box: { x: number; y: number; width: number },
  style: TextStyle,
) {
  const clean = text.normalize('NFC').replace(/\s+/gu, ' ').trim();
  if (clean === '') return;
  const rtl = (embeddingLevels(clean).paragraphs[0]?.level ?? 0) % 2 === 1;
  const measureRun = (run: { text: string; font: LoadedFont }) =>
    needsShaping(run.text)
      ? doc.font(run.font.name).fontSize(style.size).widthOfString(run.text)
      : advances(run.font, run.text, style.size);
  const measure = (part: string) =>
    fontRuns(fonts, part, style.weight).reduce((sum, run) => sum + measureRun(run), 0);
  for (const [index, line] of breakLines(clean, box.width, style.lines, measure).entries()) {
    const runs = bidiRuns(fonts, line, style.weight, rtl).map((run) => {
      const visual =
        run.level % 2 === 1 && !run.reversedByShaper ? mirrorReversed(run.text) : run.text;
      return { ...run, visual, width: measureRun(run) };
    });
    const lineWidth = runs.reduce((sum, run) => sum + run.width, 0);
    const fromLeft = (style.align === 'start') !== rtl;
    let x =
      style.align === 'center'
        ? box.x + (box.width - lineWidth) / 2
        : fromLeft
          ? box.x
          : box.x + box.width - lineWidth;
    const baseline = box.y + index * style.size * 1.2 + style.size * 0.8;
    for (const run of visualOrder(runs)) {
      doc.font(run.font.name).fontSize(style.size);
      const actual = !run.reversedByShaper && DRAWN_OUT_OF_ORDER.test(run.text);
      if (actual) doc.markContent('Span', { actual: run.text });
      doc.text(run.visual, x, baseline, {
        lineBreak: false,
        baseline: 'alphabetic',
        // Features given make pdfkit shape the run whole, instead of word by word in reading
        // order, which would put the words of a right-to-left run in the wrong order.
        ...(run.reversedByShaper ? { features: [] } : {}),
      });
      if (actual) doc.endMarkedContent();
      x += run.width;
    }
  }
}

/**
 * Whether a text's width needs the full OpenType layout (joining, reordering, marks) rather than
 * the sum of its characters' advances. The sum leaves kerning out, a few hundredths of an em a
 * pair, and costs a microsecond where a layout costs a hundred: measuring a line fitting a label
 * lays out every piece of it.
 */
const needsShaping = (text: string) =>
  DRAWN_OUT_OF_ORDER.test(text) ||
  [...text].some((char) => RIGHT_TO_LEFT_FAMILIES.has(scriptFamily(char)!));

function advances(font: LoadedFont, text: string, size: number) {
  let units = 0;
  for (const glyph of font.font.glyphsForString(text)) units += glyph.advanceWidth;
  return (units * size) / font.font.unitsPerEm;
}

/** The text cut where its font changes: what measuring it needs. */
function fontRuns(fonts: LabelFonts, text: string, weight: Weight) {
  const runs: { text: string; font: LoadedFont }[] = [];
  let current: { text: string; font: LoadedFont } | undefined;
  for (const char of units(text)) {
    const font = fonts.fontOf(char, weight, current?.font);
    if (current?.font !== font) runs.push((current = { text: '', font }));
    current.text += char;
  }
  return runs;
}

/**
 * A line's runs in logical order: a run ends where the font or the bidirectional level changes,
 * and around a character that a right-to-left level mirrors (a bracket).
 */
function bidiRuns(fonts: LabelFonts, line: string, weight: Weight, rtl: boolean) {
  const { levels } = embeddingLevels(line, rtl ? 'rtl' : 'ltr');
  const runs: Run[] = [];
  let previous: LoadedFont | undefined;
  let index = 0;
  let current: Run | undefined;
  for (const char of units(line)) {
    const font = fonts.fontOf(char, weight, previous);
    const level = levels[index]!;
    const mirrored = level % 2 === 1 && bidi.getMirroredCharacter(char) !== null;
    if (!current || mirrored || current.font !== font || current.level !== level) {
      current = { text: '', font, level, reversedByShaper: false };
      runs.push(current);
    }
    current.text += char;
    if (level % 2 === 1 && RIGHT_TO_LEFT_FAMILIES.has(scriptFamily(char)!)) {
      current.reversedByShaper = true;
    }
    if (mirrored) current = undefined;
    previous = font;
    index += char.length;
  }
  return runs;
}

/** Runs from left to right: each maximal sequence at or above a level reversed, highest first. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const order = [...runs];
  const highest = Math.max(...order.map((run) => run.level));
  const lowestOdd = Math.min(...order.map((run) => run.level | 1));
  for (let level = highest; level >= lowestOdd; level -= 1) {
    for (let i = 0; i < order.length;) {
      if (order[i]!.level < level) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < order.length && order[end]!.level >= level) end += 1;
      order.splice(i, end - i, ...order.slice(i, end).reverse());
      i = end;
    }
  }
  return order;
}

/** Characters right to left: grapheme clusters in reverse, brackets mirrored. */
function mirrorReversed(text: string) {
  return [...graphemes.segment(text)]
    .map(({ segment }) => bidi.getMirroredCharacter(segment) ?? segment)
    .reverse()
    .join('');
}

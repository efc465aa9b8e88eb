import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { withMyanmarShaping } from './myanmar.js';

/**
 * A font of the @expo-google-fonts packages: one TTF file per weight, in a folder of its own.
 * Some come in one weight only, which then prints the bold texts too.
 */
function googleFont(name: string, file: string, { bold = true } = {}) {
  return {
    package: `@expo-google-fonts/${name}`,
    regular: `400Regular/${file}_400Regular.ttf`,
    bold: bold ? `700Bold/${file}_700Bold.ttf` : `400Regular/${file}_400Regular.ttf`,
  } as const;
}

/**
 * The fonts a label may print with, one family per group of scripts, all Noto (SIL Open Font
 * License) from npm packages. Noto Sans covers Latin with every diacritic and typographic
 * punctuation, Greek, Cyrillic and Devanagari; the others add what it lacks. The CJK font
 * (Simplified Chinese forms) covers every unified ideograph and the kana; Hangul has its own.
 * Emoji print in black and white (Noto Emoji): a label printer has no colour.
 */
const FAMILIES = {
  base: {
    package: '@embedpdf/fonts-latin',
    regular: 'fonts/NotoSans-Regular.ttf',
    bold: 'fonts/NotoSans-Bold.ttf',
  },
  arabic: {
    package: '@embedpdf/fonts-arabic',
    regular: 'fonts/NotoNaskhArabic-Regular.ttf',
    bold: 'fonts/NotoNaskhArabic-Bold.ttf',
  },
  hebrew: {
    package: '@embedpdf/fonts-hebrew',
    regular: 'fonts/NotoSansHebrew-Regular.ttf',
    bold: 'fonts/NotoSansHebrew-Bold.ttf',
  },
  thai: {
    package: '@expo-google-fonts/noto-sans-thai',
    regular: '400Regular/NotoSansThai_400Regular.ttf',
    bold: '700Bold/NotoSansThai_700Bold.ttf',
  },
  han: {
    package: '@embedpdf/fonts-sc',
    regular: 'fonts/NotoSansHans-Regular.otf',
    bold: 'fonts/NotoSansHans-Bold.otf',
  },
  hangul: {
    package: '@embedpdf/fonts-kr',
    regular: 'fonts/NotoSansKR-Regular.otf',
    bold: 'fonts/NotoSansKR-Bold.otf',
  },
  bengali: googleFont('noto-sans-bengali', 'NotoSansBengali'),
  gurmukhi: googleFont('noto-sans-gurmukhi', 'NotoSansGurmukhi'),
  gujarati: googleFont('noto-sans-gujarati', 'NotoSansGujarati'),
  oriya: googleFont('noto-sans-oriya', 'NotoSansOriya'),
  tamil: googleFont('noto-sans-tamil', 'NotoSansTamil'),
  telugu: googleFont('noto-sans-telugu', 'NotoSansTelugu'),
  kannada: googleFont('noto-sans-kannada', 'NotoSansKannada'),
  malayalam: googleFont('noto-sans-malayalam', 'NotoSansMalayalam'),
  sinhala: googleFont('noto-sans-sinhala', 'NotoSansSinhala'),
  georgian: googleFont('noto-sans-georgian', 'NotoSansGeorgian'),
  armenian: googleFont('noto-sans-armenian', 'NotoSansArmenian'),
  ethiopic: googleFont('noto-sans-ethiopic', 'NotoSansEthiopic'),
  khmer: googleFont('noto-sans-khmer', 'NotoSansKhmer'),
  lao: googleFont('noto-sans-lao', 'NotoSansLao'),
  myanmar: googleFont('noto-sans-myanmar', 'NotoSansMyanmar'),
  // No sans-serif Tibetan is published on npm; the serif one is the Noto Tibetan there is.
  tibetan: googleFont('noto-serif-tibetan', 'NotoSerifTibetan'),
  thaana: googleFont('noto-sans-thaana', 'NotoSansThaana'),
  syllabics: googleFont('noto-sans-canadian-aboriginal', 'NotoSansCanadianAboriginal'),
  cherokee: googleFont('noto-sans-cherokee', 'NotoSansCherokee'),
  tifinagh: googleFont('noto-sans-tifinagh', 'NotoSansTifinagh', { bold: false }),
  olChiki: googleFont('noto-sans-ol-chiki', 'NotoSansOlChiki'),
  yi: googleFont('noto-sans-yi', 'NotoSansYi', { bold: false }),
  emoji: googleFont('noto-emoji', 'NotoEmoji'),
} as const;

export type Family = keyof typeof FAMILIES;
export type Weight = 'regular' | 'bold';

/** A family's scripts: its characters' Script, or Script_Extensions for shared marks. */
const scripts = (family: Family, ...names: string[]): [Family, RegExp, RegExp] => [
  family,
  new RegExp(`[${names.map((name) => `\\p{sc=${name}}`).join('')}]`, 'u'),
  new RegExp(`[${names.map((name) => `\\p{scx=${name}}`).join('')}]`, 'u'),
];

/** Which family draws the letters of a script (Script, or Script_Extensions for shared marks). */
const SCRIPTS: [Family, RegExp, RegExp][] = [
  scripts('arabic', 'Arabic'),
  scripts('hebrew', 'Hebrew'),
  scripts('thai', 'Thai'),
  scripts('hangul', 'Hangul'),
  scripts('han', 'Han', 'Hiragana', 'Katakana', 'Bopomofo'),
  scripts('bengali', 'Bengali'),
  scripts('gurmukhi', 'Gurmukhi'),
  scripts('gujarati', 'Gujarati'),
  scripts('oriya', 'Oriya'),
  scripts('tamil', 'Tamil'),
  scripts('telugu', 'Telugu'),
  scripts('kannada', 'Kannada'),
  scripts('malayalam', 'Malayalam'),
  scripts('sinhala', 'Sinhala'),
  scripts('georgian', 'Georgian'),
  scripts('armenian', 'Armenian'),
  scripts('ethiopic', 'Ethiopic'),
  scripts('khmer', 'Khmer'),
  scripts('lao', 'Lao'),
  scripts('myanmar', 'Myanmar'),
  scripts('tibetan', 'Tibetan'),
  scripts('thaana', 'Thaana'),
  scripts('syllabics', 'Canadian_Aboriginal'),
  scripts('cherokee', 'Cherokee'),
  scripts('tifinagh', 'Tifinagh'),
  scripts('olChiki', 'Ol_Chiki'),
  scripts('yi', 'Yi'),
  // Pictographs shown as emoji by default are the emoji font's own; those shown as text by
  // default (❤, ☺) take it only where Noto Sans lacks them, as a script's shared marks do.
  ['emoji', /\p{Emoji_Presentation}/u, /\p{Extended_Pictographic}/u],
];

/**
 * A grapheme cluster drawn as one emoji: a pictograph shown as emoji by default (a face, a flag's
 * regional indicators, a sequence joined by ZWJ, with its skin tone), or any emoji character asked
 * for as one (❤ or 1 with U+FE0F, a keycap). The emoji font lays each out as one glyph.
 */
export const isEmoji = (cluster: string) =>
  // No emoji comes before U+231A (⌚) unless asked for with a selector or as a keycap.
  (cluster.length > 1 || cluster >= '\u231A') &&
  /^(?:\p{Emoji_Presentation}|\p{Emoji}[\uFE0F\u20E3])/u.test(cluster);

/** The family of a character's own script, if it is one of those the base font lacks. */
export function scriptFamily(char: string): Family | undefined {
  // Latin and its marks, the bulk of most names: no script of SCRIPTS starts before Greek.
  if (char < '\u0370') return undefined;
  return SCRIPTS.find(([, script]) => script.test(char))?.[0];
}

/** The families whose scripts share a character (CJK punctuation, Arabic comma…). */
export function sharedFamilies(char: string): Family[] {
  return SCRIPTS.filter(([, , extensions]) => extensions.test(char)).map(([family]) => family);
}

/** A font file, read once per process, with its parsed tables for glyph coverage. */
export interface LoadedFont {
  /** The name it is registered under in a document. */
  name: string;
  /** The family it is of: the Noto font of one group of scripts. */
  family: Family;
  font: fontkit.Font;
}

const requireHere = createRequire(import.meta.url);

/** The folder of an installed package, found from its entry point. */
function packageDir(name: string) {
  let dir = path.dirname(requireHere.resolve(name));
  while (path.basename(dir) !== name.split('/').pop() && dir !== path.dirname(dir)) {
    dir = path.dirname(dir);
  }
  return dir;
}

/**
 * Each font is read the first time a label needs it and kept for the process: most servers only
 * ever load Noto Sans (1.3 MB for both weights); the CJK fonts (8 MB a weight) only once a name
 * in those scripts is printed.
 */
const loaded = new Map<string, Promise<LoadedFont>>();

/**
 * fontkit keeps each glyph with the characters it was first made for, and pdfkit maps a drawn
 * glyph back to those characters (the text a reader copies or searches). A glyph first met in a
 * variation sequence (a dot before U+FE0F) would read back wrong in every later document of the
 * process, so each character's glyph is made once up front from that character. Compatibility
 * characters are left out: their glyphs (an Arabic letter's joined forms, Kangxi radicals) must
 * read back as the letters shaping makes them from. Once per process: about 20 ms for Noto Sans, 40 for a CJK font.
 */
function withGlyphsKnown(font: fontkit.Font) {
  for (const codePoint of font.characterSet) {
    const char = String.fromCodePoint(codePoint);
    if (char.normalize('NFKC') === char) font.glyphForCodePoint(codePoint);
  }
  return font;
}

/** What of fontkit's layout engine the guard below reaches: not part of its typed API. */
interface MarkPositioning {
  applyAnchor(markRecord: { markAnchor: unknown }, baseAnchor: unknown, baseIndex: number): void;
  nullAnchorsSkipped?: boolean;
}

/**
 * OpenType lets a mark attachment leave an anchor out (a NULL offset: this mark class has no
 * place on that base), and Noto Sans Gurmukhi does; fontkit 2.0.4 throws on it, which would end
 * the whole document. HarfBuzz leaves such a mark unmoved; so does this, on the class all fonts'
 * layouts share (fontkit's GPOS processor), the first time a font with GPOS is loaded.
 */
function withNullAnchorsSkipped(font: fontkit.Font) {
  const engine = (font as unknown as { _layoutEngine?: { engine?: { GPOSProcessor?: object } } })
    ._layoutEngine?.engine;
  const positioning = engine?.GPOSProcessor
    ? (Object.getPrototypeOf(engine.GPOSProcessor) as MarkPositioning)
    : undefined;
  if (positioning && !positioning.nullAnchorsSkipped) {
    const applyAnchor = positioning.applyAnchor;
    positioning.applyAnchor = function (markRecord, baseAnchor, baseIndex) {
      if (markRecord.markAnchor && baseAnchor)
        applyAnchor.call(this, markRecord, baseAnchor, baseIndex);
    };
    positioning.nullAnchorsSkipped = true;
  }
  return font;
}

/** A font as its script's layout needs it: see the functions it goes through. */
function shaped(family: Family, font: fontkit.Font) {
  withNullAnchorsSkipped(font);
  return family === 'myanmar' ? withMyanmarShaping(font) : font;
}

export function loadFont(family: Family, weight: Weight): Promise<LoadedFont> {
  const name = `${family}-${weight}`;
  let font = loaded.get(name);
  if (!font) {
    const { package: pkg, [weight]: file } = FAMILIES[family];
    font = readFile(path.join(packageDir(pkg), file)).then((bytes) => ({
      name,
      family,
      font: shaped(family, withGlyphsKnown(fontkit.create(bytes) as fontkit.Font)),
    }));
    // A failed read is tried again next time rather than remembered.
    font.catch(() => loaded.delete(name));
    loaded.set(name, font);
  }
  return font;
}

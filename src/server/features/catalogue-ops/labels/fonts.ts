import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The fonts a label may print with, one family per group of scripts, all Noto (SIL Open Font
 * License) from npm packages. Noto Sans covers Latin with every diacritic and typographic
 * punctuation, Greek, Cyrillic and Devanagari; the others add what it lacks. The CJK font
 * (Simplified Chinese forms) covers every unified ideograph and the kana; Hangul has its own.
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
} as const;

export type Family = keyof typeof FAMILIES;
export type Weight = 'regular' | 'bold';

/** Which family draws the letters of a script (Script, or Script_Extensions for shared marks). */
const SCRIPTS: [Family, RegExp, RegExp][] = [
  ['arabic', /\p{sc=Arabic}/u, /\p{scx=Arabic}/u],
  ['hebrew', /\p{sc=Hebrew}/u, /\p{scx=Hebrew}/u],
  ['thai', /\p{sc=Thai}/u, /\p{scx=Thai}/u],
  ['hangul', /\p{sc=Hangul}/u, /\p{scx=Hangul}/u],
  [
    'han',
    /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Bopomofo}]/u,
    /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Bopomofo}]/u,
  ],
];

/** The family of a character's own script, if it is one of those the base font lacks. */
export function scriptFamily(char: string): Family | undefined {
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

export function loadFont(family: Family, weight: Weight): Promise<LoadedFont> {
  const name = `${family}-${weight}`;
  let font = loaded.get(name);
  if (!font) {
    const { package: pkg, [weight]: file } = FAMILIES[family];
    font = readFile(path.join(packageDir(pkg), file)).then((bytes) => ({
      name,
      font: withGlyphsKnown(fontkit.create(bytes) as fontkit.Font),
    }));
    // A failed read is tried again next time rather than remembered.
    font.catch(() => loaded.delete(name));
    loaded.set(name, font);
  }
  return font;
}

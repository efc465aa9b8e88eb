import type * as fontkit from 'fontkit';

/**
 * Myanmar as fontkit must be given it. fontkit has no Myanmar shaper (its default one lays Myanmar
 * out): it would draw the vowel sign E (ေ) and the medial Ra (ြ) after the consonant they are
 * typed after, where they are written before it, and leave out the font's below-base and
 * above-base forms. HarfBuzz's Myanmar shaper moves them in front of each syllable's base, puts a
 * kinzi (င်္, typed before the base) after it, and applies those features to every syllable: so
 * does the Myanmar font's layout here, before fontkit's default shaping. The text a reader copies
 * stays as typed (the run's ActualText).
 */
export function withMyanmarShaping(font: fontkit.Font) {
  const layout = font.layout.bind(font);
  font.layout = (text, features, ...rest) =>
    layout(myanmarVisualOrder(text), features ?? MYANMAR_FEATURES, ...rest);
  return font;
}

/** The features HarfBuzz applies to Myanmar beyond the default ones, in its order. */
const MYANMAR_FEATURES = ['rphf', 'pref', 'blwf', 'pstf', 'pres', 'abvs', 'blws', 'psts'];

const MYANMAR = /\p{sc=Myanmar}/u;
const isLetter = (char: string | undefined) =>
  char !== undefined && MYANMAR.test(char) && /\p{L}/u.test(char);
/** What belongs to the syllable of the letter before it: marks, joiners, variation selectors. */
const isMark = (char: string) =>
  (MYANMAR.test(char) && /\p{M}/u.test(char)) ||
  char === '\u200C' ||
  char === '\u200D' ||
  (char >= '\uFE00' && char <= '\uFE0F');

const VIRAMA = '\u1039';
const ASAT = '\u103A';
/** The letters that make a kinzi with asat and virama before the next consonant. */
const KINZI_LETTERS = new Set(['\u1004', '\u101B', '\u105A']);
/** Vowel signs written before their consonant: E, and Shan's E. */
const PRE_BASE_VOWELS = new Set(['\u1031', '\u1084']);
const MEDIAL_RA = '\u103C';

/** Each syllable in the order its glyphs are drawn: pre-base vowel, medial Ra, base, kinzi, rest. */
export function myanmarVisualOrder(text: string): string {
  const chars = [...text];
  let out = '';
  let i = 0;
  while (i < chars.length) {
    let kinzi = '';
    if (
      KINZI_LETTERS.has(chars[i]!) &&
      chars[i + 1] === ASAT &&
      chars[i + 2] === VIRAMA &&
      isLetter(chars[i + 3])
    ) {
      kinzi = chars.slice(i, i + 3).join('');
      i += 3;
    }
    if (!isLetter(chars[i])) {
      out += chars[i];
      i += 1;
      continue;
    }
    const base = chars[i]!;
    let pre = '';
    let ra = '';
    let rest = '';
    for (i += 1; i < chars.length; i += 1) {
      const char = chars[i]!;
      if (char === VIRAMA && isLetter(chars[i + 1])) {
        // A consonant stacked below: part of the syllable.
        rest += char + chars[i + 1];
        i += 1;
      } else if (!isMark(char)) break;
      else if (PRE_BASE_VOWELS.has(char)) pre += char;
      else if (char === MEDIAL_RA) ra += char;
      else rest += char;
    }
    out += pre + ra + base + kinzi + rest;
  }
  return out;
}

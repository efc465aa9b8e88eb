import { expect, it } from 'vitest';
import { loadFont } from '../../../src/server/features/catalogue-ops/labels/fonts.js';
import { myanmarVisualOrder } from '../../../src/server/features/catalogue-ops/labels/myanmar.js';

// pdfkit writes each drawn glyph's characters as the text a reader copies and searches: a glyph
// first met in a variation sequence must still read back as its own character afterwards.
it("keeps each glyph's own character, whatever text met it first", async () => {
  const { font } = await loadFont('base', 'regular');
  const [dotted] = font.glyphsForString('.\uFE0F');
  expect(dotted!.codePoints).toEqual([0x2e]);
  expect(font.glyphForCodePoint(0x2e).codePoints).toEqual([0x2e]);
});

// Noto Sans Gurmukhi leaves some mark anchors out (NULL offsets, which OpenType allows), and
// fontkit 2.0.4 throws on them: a name in Gurmukhi would end the whole document.
it('lays out a font whose marks leave some anchors out', async () => {
  const { font } = await loadFont('gurmukhi', 'bold');
  const run = font.layout('ਮੋਮਬੱਤੀ ਪੰਜਾਬੀ');
  expect(run.glyphs.every((glyph) => glyph.id !== 0)).toBe(true);
});

// fontkit has no Myanmar shaper: the text reaches it in the order its glyphs are drawn.
it('puts Myanmar vowel sign E and medial Ra before their syllable’s base, a kinzi after it', () => {
  // ပ ြ ေ ာ: medial Ra and E go before ပ, E first.
  expect(myanmarVisualOrder('\u1015\u103C\u1031\u102C')).toBe('\u1031\u103C\u1015\u102C');
  // ယ ေ ာ င ် း: E before ယ; the rest as typed.
  expect(myanmarVisualOrder('\u101A\u1031\u102C\u1004\u103A\u1038')).toBe(
    '\u1031\u101A\u102C\u1004\u103A\u1038',
  );
  // A consonant stacked under the base stays with it, E before both: စ ္ စ ေ.
  expect(myanmarVisualOrder('\u1005\u1039\u1005\u1031')).toBe('\u1031\u1005\u1039\u1005');
  // Kinzi (င ် ္) typed before ဂ is drawn above it, so it follows it.
  expect(myanmarVisualOrder('\u1021\u1004\u103A\u1039\u1002')).toBe(
    '\u1021\u1002\u1004\u103A\u1039',
  );
  // Nothing moves in text without them, nor out of a word into the one before.
  expect(myanmarVisualOrder('\u1000\u103B\u103D\u1014\u103A abc')).toBe(
    '\u1000\u103B\u103D\u1014\u103A abc',
  );
  expect(myanmarVisualOrder('a \u1031')).toBe('a \u1031');
});

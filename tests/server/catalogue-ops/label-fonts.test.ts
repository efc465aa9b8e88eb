import { expect, it } from 'vitest';
import { loadFont } from '../../../src/server/features/catalogue-ops/labels/fonts.js';

// pdfkit writes each drawn glyph's characters as the text a reader copies and searches: a glyph
// first met in a variation sequence must still read back as its own character afterwards.
it("keeps each glyph's own character, whatever text met it first", async () => {
  const { font } = await loadFont('base', 'regular');
  const [dotted] = font.glyphsForString('.\uFE0F');
  expect(dotted!.codePoints).toEqual([0x2e]);
  expect(font.glyphForCodePoint(0x2e).codePoints).toEqual([0x2e]);
});

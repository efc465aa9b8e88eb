import { describe, expect, it } from 'vitest';
import { Utf8Check } from '../../../src/server/features/catalogue-ops/utf8-check.js';

/** The line Utf8Check gives for these bytes fed in chunks of `size`, or undefined. */
function check(bytes: Buffer, size = bytes.length) {
  const utf8 = new Utf8Check();
  for (let i = 0; i < bytes.length; i += size) {
    const line = utf8.push(bytes.subarray(i, i + size));
    if (line !== undefined) return line;
  }
  return utf8.end();
}

describe('Utf8Check', () => {
  it('takes UTF-8 in any chunks, a character cut anywhere', () => {
    const text = Buffer.from('a,b\r\nÉmile 🚀 生\n\r\nü\rend');
    for (const size of [1, 2, 3, 5, text.length]) expect(check(text, size)).toBeUndefined();
    // As TextDecoder's strict mode judges it, every code point.
    const all = Buffer.from(
      String.fromCodePoint(0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff),
    );
    expect(check(all, 1)).toBeUndefined();
  });

  it('finds the line of the first byte that is not, counting CRLF, LF and CR once each', () => {
    const at = (prefix: string, bad: number[]) =>
      check(Buffer.concat([Buffer.from(prefix), Buffer.from(bad)]), 1);
    expect(at('', [0xe9])).toBe(1); // Latin-1 é
    expect(at('a\r\nb\nc\rd\r\n', [0xff])).toBe(5);
    expect(at('x\n', [0xc0, 0x80])).toBe(2); // overlong NUL
    expect(at('', [0xe0, 0x80, 0x80])).toBe(1); // overlong
    expect(at('', [0xed, 0xa0, 0x80])).toBe(1); // a surrogate
    expect(at('', [0xf4, 0x90, 0x80, 0x80])).toBe(1); // past U+10FFFF
    expect(at('', [0xc3, 0x41])).toBe(1); // a continuation missing
    expect(at('\n\n', [0xe2, 0x82])).toBe(3); // cut off at the end
  });
});

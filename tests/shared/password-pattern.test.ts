import { describe, expect, it } from 'vitest';
import { PASSWORD_PATTERN, passwordSchema } from '../../src/shared/schemas/common.js';
import { V } from '../../src/shared/messages.js';

const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;
/** The server's rule, letters and numbers only (length has its own keywords). */
const rule = (text: string) => LETTER.test(text) && NUMBER.test(text);

/** The same pattern as a plain engine reads it (no `u` flag) and as a JSON Schema validator does. */
const plain = new RegExp(PASSWORD_PATTERN);
const unicode = new RegExp(PASSWORD_PATTERN, 'u');

/** Every code point up to U+00FF, and a few beyond (other scripts, astral letters and numbers). */
const LATIN1 = Array.from({ length: 256 }, (_, code) => String.fromCharCode(code));
const BEYOND = ['é', 'п', 'ж', '中', 'ü', '٣', '①', 'Ⅻ', '𝐀', '𝟙', '😀', '\u2028', '\u00A0'];

/** A small deterministic generator: the same strings on every run. */
function* strings(count: number) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < count; i += 1) {
    const length = next() % 9;
    yield Array.from({ length }, () => LATIN1[next() % 256]).join('');
  }
}

/**
 * PASSWORD_PATTERN is the password rule of the OpenAPI document (shared/schemas/common.ts): written for
 * regex engines that know no \p{…} (ECMAScript without the u flag, Python's re), it must agree
 * with the server's rule on every text of characters up to U+00FF and never refuse a password the
 * server takes.
 */
describe('the documented password pattern', () => {
  it('is exact on text up to U+00FF, with or without the u flag', () => {
    const pairs = LATIN1.flatMap((a) => LATIN1.map((b) => `${a}${b}`));
    const wrong = [...pairs, ...strings(20_000)].filter(
      (text) => plain.test(text) !== rule(text) || unicode.test(text) !== rule(text),
    );
    expect(wrong).toEqual([]);
  });

  it('never refuses what the server takes, in any script', () => {
    for (const a of [...BEYOND, ...LATIN1]) {
      for (const b of BEYOND) {
        for (const text of [`${a}${b}`, `${b}${a}`, `--${a}..${b}--`]) {
          if (rule(text)) {
            expect(plain.test(text), text).toBe(true);
            expect(unicode.test(text), text).toBe(true);
          }
        }
      }
    }
  });

  it('reads the sign-up examples as the server does', () => {
    for (const [text, ok] of [
      ['password', false],
      ['12345678', false],
      ['passw0rd', true],
      ['пароль12', true],
      ['Ölwanne7', true],
      ['½½½½½½½a', true],
    ] as const) {
      expect(plain.test(text), text).toBe(ok);
    }
  });

  it('is what the shared schema documents, while the schema still checks \\p{L} and \\p{N}', () => {
    const json = passwordSchema.toJSONSchema({ io: 'input' }) as {
      pattern?: string;
      allOf?: unknown;
    };
    expect(json.pattern).toBe(PASSWORD_PATTERN);
    expect(json.allOf).toBeUndefined();
    expect(passwordSchema.safeParse('пароль12').success).toBe(true);
    expect(passwordSchema.safeParse('passwords').error?.issues[0]?.message).toBe(V.passwordNumber);
    expect(passwordSchema.safeParse('12345678').error?.issues[0]?.message).toBe(V.passwordLetter);
  });
});

import { describe, expect, it } from 'vitest';
import { KeyboardBurst } from '@/lib/keyboard-burst.js';

/** Feeds `keys` at the given gaps (ms before each key); returns what each key made of it. */
function feed(keys: string[], gaps: number[] | number, start = 1_000) {
  const burst = new KeyboardBurst();
  let at = start;
  return keys.map((key, i) => {
    at += typeof gaps === 'number' ? gaps : (gaps[i] ?? 0);
    return burst.key(key, at);
  });
}

const scan = (code: string, end = 'Enter') => [...code, end];

describe('KeyboardBurst', () => {
  it('takes a code typed at a scanner’s speed and ended by Enter or Tab', () => {
    expect(feed(scan('4006381333931'), 5).at(-1)).toEqual({ scan: '4006381333931' });
    expect(feed(scan('SKU-12/b', 'Tab'), 8).at(-1)).toEqual({ scan: 'SKU-12/b' });
  });

  it('takes a burst whose keys arrive unevenly on a busy phone, up to 90 ms apart', () => {
    const gaps = [0, 3, 46, 2, 1, 90, 4, 0, 0, 39, 12, 2, 5, 46];
    expect(feed(scan('4006381333931'), gaps).at(-1)).toEqual({ scan: '4006381333931' });
  });

  it('leaves a person’s typing alone, however fast they are', () => {
    expect(feed(scan('12345678'), 110).at(-1)).toBeUndefined();
    // A quick typist: some keys fast, the run's pace a person's.
    const gaps = [0, 140, 40, 150, 35, 160, 45, 130, 120];
    expect(feed(scan('12345678'), gaps).at(-1)).toBeUndefined();
  });

  it('needs a run of at least 4 code characters', () => {
    expect(feed(scan('123'), 5).at(-1)).toBeUndefined();
  });

  it('starts again after a pause: a person’s keys before a scan are not part of it', () => {
    const keys = ['x', 'y', ...scan('012345678905')];
    const gaps = [0, 120, 900, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5];
    expect(feed(keys, gaps).at(-1)).toEqual({ scan: '012345678905' });
  });

  it('says a burst was ignored when it has a character no code has', () => {
    expect(feed(scan('4006 3813'), 5).at(-1)).toEqual({ ignored: '4006 3813' });
  });

  it('says a burst was ignored when no Enter or Tab ends it', () => {
    const burst = new KeyboardBurst();
    [...'4006381333931'].forEach((key, i) => burst.key(key, 1_000 + i * 5));
    expect(burst.idle()).toEqual({ ignored: '4006381333931' });
    // Said once.
    expect(burst.idle()).toBeUndefined();
    // A person's unfinished typing is not a burst.
    [...'40063813'].forEach((key, i) => burst.key(key, 5_000 + i * 150));
    expect(burst.idle()).toBeUndefined();
  });

  it('takes twelve scans in a row, each on its own', () => {
    const burst = new KeyboardBurst();
    let at = 0;
    const results = [];
    for (let i = 0; i < 12; i++) {
      at += 150;
      for (const key of scan(`40063813339${String(i).padStart(2, '0')}`)) {
        at += 20;
        results.push(burst.key(key, at));
      }
    }
    expect(results.filter(Boolean)).toHaveLength(12);
  });
});

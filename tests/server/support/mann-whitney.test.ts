import { describe, expect, it, vi } from 'vitest';
import { erfc, expectIndistinguishableTimes, mannWhitney, median } from './mann-whitney.js';

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

// Reference values from SciPy 1.17: scipy.special.erfc and
// scipy.stats.mannwhitneyu(x, y, method='asymptotic', use_continuity=True).
describe('the Mann-Whitney U test the timing tests use', () => {
  it.each([
    [0, 1],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028516],
    [2, 0.004677734981047266],
    [3, 2.2090496998585445e-5],
    [5, 1.5374597944280347e-12],
    [-1, 1.8427007929497148],
  ])('erfc(%s) = %s', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(2e-7);
  });

  it.each([
    ['fully separated', range(1, 5), range(6, 10), 0, 0.012185780355344813],
    ['with ties', [1, 2, 2, 3, 3, 3, 4, 8], [2, 3, 3, 5, 6, 6, 7, 9, 9], 17, 0.07041682885384162],
    ['60 a side, apart', range(1, 60), range(101, 160), 0, 3.5565709749847226e-21],
    ['60 a side, overlapping', range(1, 60), range(31, 90), 450, 1.4065275903970576e-12],
    ['all tied', Array(10).fill(5), Array(10).fill(5), 50, 1],
  ])('%s: U and p as SciPy computes them', (_label, xs, ys, u, p) => {
    const result = mannWhitney(xs, ys);
    expect(result.u).toBe(u);
    expect(Math.abs(result.p - p) / p).toBeLessThan(1e-6);
  });

  it('is symmetric: swapping the samples changes the sign of z, not p', () => {
    const a = mannWhitney([1, 4, 4, 7, 9], [2, 3, 8, 10, 11, 12]);
    const b = mannWhitney([2, 3, 8, 10, 11, 12], [1, 4, 4, 7, 9]);
    expect(b.z).toBeCloseTo(-a.z, 12);
    expect(b.p).toBeCloseTo(a.p, 12);
  });

  it('medians of odd and even samples', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('the verdict of the timing tests', () => {
  const same = { existing: range(1, 60), unknown: range(1, 60) };
  const apart = { existing: range(101, 160), unknown: range(1, 60) };

  async function verdict(...measurements: (typeof same)[]) {
    const measure = vi.fn(() => Promise.resolve(measurements.shift()!));
    const assert = vi.fn<(ok: boolean, summary: string) => void>();
    await expectIndistinguishableTimes(measure, assert);
    return {
      measured: measure.mock.calls.length,
      ok: assert.mock.calls[0]![0],
      summary: assert.mock.calls[0]![1],
    };
  }

  it('passes on one measurement when the times are alike', async () => {
    expect(await verdict(same, apart)).toMatchObject({ measured: 1, ok: true });
  });

  it('measures again when they differ, and passes if the second measurement does not', async () => {
    expect(await verdict(apart, same)).toMatchObject({ measured: 2, ok: true });
  });

  it('fails when both measurements differ, and says what each found', async () => {
    const result = await verdict(apart, apart);
    expect(result).toMatchObject({ measured: 2, ok: false });
    expect(result.summary).toMatch(/^median 130\.500 ms .*; measured again: median 130\.500 ms/);
  });

  it('passes a significant difference smaller than a tenth of the time', async () => {
    const slightly = {
      existing: range(1, 60).map((v) => 1000 + v),
      unknown: range(1, 60).map((v) => 1030 + v),
    };
    expect(await verdict(slightly)).toMatchObject({ measured: 1, ok: true });
  });
});

/**
 * The Mann-Whitney U test (two-sided), for telling whether two sets of timings come from the same
 * distribution without assuming they are normal. Uses the normal approximation with the tie
 * correction and a continuity correction, which is accurate for samples of 20 or more per side.
 */
export interface MannWhitney {
  /** U of the first sample: how many (x, y) pairs have x > y, ties counting one half. */
  u: number;
  z: number;
  /** Two-sided p-value. */
  p: number;
}

export function mannWhitney(xs: readonly number[], ys: readonly number[]): MannWhitney {
  const n1 = xs.length;
  const n2 = ys.length;
  if (n1 === 0 || n2 === 0) throw new Error('both samples need values');
  const n = n1 + n2;

  // Rank the pooled values from 1; tied values share the mean of the ranks they span.
  const pooled = [
    ...xs.map((value) => ({ value, first: true })),
    ...ys.map((value) => ({ value, first: false })),
  ];
  pooled.sort((a, b) => a.value - b.value);
  let rankSumX = 0;
  let tieTerm = 0;
  for (let start = 0; start < n;) {
    let end = start;
    while (end + 1 < n && pooled[end + 1]!.value === pooled[start]!.value) end += 1;
    const tied = end - start + 1;
    const rank = (start + 1 + end + 1) / 2;
    for (let i = start; i <= end; i += 1) if (pooled[i]!.first) rankSumX += rank;
    tieTerm += tied ** 3 - tied;
    start = end + 1;
  }

  const u = rankSumX - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance === 0) return { u, z: 0, p: 1 };
  const distance = Math.max(Math.abs(u - mean) - 0.5, 0);
  const z = (Math.sign(u - mean) * distance) / Math.sqrt(variance);
  return { u, z, p: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)) };
}

/**
 * The complementary error function, so that the two-sided normal tail is erfc(|z| / √2).
 * Chebyshev fit from Numerical Recipes (erfcc): relative error below 1.2e-7 everywhere.
 */
export function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Fail when timings this unlikely under "same distribution" are seen… */
const SIGNIFICANCE = 0.001;
/**
 * …and the medians differ by at least this share. A smaller gap (a B-tree page more or less in
 * one fsync'd commit, a new key in a cache) is below the jitter of any network a client measures
 * over; what an account check would really cost (a skipped hash, a query only for existing
 * addresses, a mail rendered in the request) is many times larger.
 */
const RELEVANT_SHARE = 0.1;

interface TimingSamples {
  existing: readonly number[];
  unknown: readonly number[];
}

/** Whether the two samples are indistinguishable, with a line that says why or why not. */
function verdictOnTimes(samples: TimingSamples) {
  const { p } = mannWhitney(samples.existing, samples.unknown);
  const [a, b] = [median(samples.existing), median(samples.unknown)];
  const summary =
    `median ${a.toFixed(3)} ms for an existing account, ` +
    `${b.toFixed(3)} ms for an unknown address, p = ${p.toExponential(2)}`;
  const relevant = Math.abs(a - b) >= RELEVANT_SHARE * Math.max(a, b);
  return { ok: p >= SIGNIFICANCE || !relevant, summary };
}

/**
 * Asserts that answers for an existing account and for an unknown address take times no client
 * could tell apart: not significantly different, or different by less than a relevant share.
 * A verdict of "different" is checked by a second, independent measurement. A real difference
 * (a skipped hash, a query only one side makes) shows in both; load from elsewhere on the machine
 * comes in bursts that span several pairs, so the samples are not quite independent, and now and
 * then one measurement crosses the line by chance; two in a row seldom do.
 */
export async function expectIndistinguishableTimes(
  measure: () => Promise<TimingSamples>,
  assert: (ok: boolean, summary: string) => void,
) {
  const first = verdictOnTimes(await measure());
  if (first.ok) return assert(true, first.summary);
  const second = verdictOnTimes(await measure());
  assert(second.ok, `${first.summary}; measured again: ${second.summary}`);
}

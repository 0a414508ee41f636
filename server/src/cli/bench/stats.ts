/** Intervals for benchmark figures. */

export interface Interval {
  lo: number;
  hi: number;
}

/**
 * 95% percentile bootstrap interval of a mean (2,000 resamples, fixed seed so a rerun prints the
 * same interval): per-query recall and reciprocal rank are bounded but far from normal.
 */
export function bootstrapCI(xs: number[], resamples = 2000, seed = 7): Interval {
  const n = xs.length;
  if (!n) return { lo: 0, hi: 0 };
  let s = seed >>> 0;
  const rand = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += xs[Math.floor(rand() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  return { lo: means[Math.floor(0.025 * resamples)]!, hi: means[Math.ceil(0.975 * resamples) - 1]! };
}

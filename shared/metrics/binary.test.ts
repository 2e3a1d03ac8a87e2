import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atThreshold, countsAt, curve, rates, rateIntervals, wilson, Z95 } from './binary';

describe('Wilson score interval', () => {
  // Worked by hand (and with Python's statistics.NormalDist().inv_cdf(0.975) as z):
  // 13 of 20: p = .65, z² = 3.841459; centre (.65 + z²/40) = .746036; spread z·√(p(1−p)/20 + z²/1600) = .230043;
  // divided by 1 + z²/20 = 1.192073 → [.432854, .818808].
  it('matches the hand computation', () => {
    const i = wilson(13, 20)!;
    expect(i.low).toBeCloseTo(0.4328543, 6);
    expect(i.high).toBeCloseTo(0.8188082, 6);
    // 0 of 20: the upper bound is z²/n over 1 + z²/n = 3.841459/23.841459 = .161125, the lower 0.
    expect(wilson(0, 20)!.low).toBeCloseTo(0, 12);
    expect(wilson(0, 20)!.high).toBeCloseTo(0.1611252, 6);
    expect(wilson(7, 35)!.low).toBeCloseTo(0.1004245, 6);
    expect(wilson(7, 35)!.high).toBeCloseTo(0.3589161, 6);
    // One of one is not "certainly 1": [.2065, 1].
    expect(wilson(1, 1)!.low).toBeCloseTo(0.2065493, 6);
    expect(wilson(0, 0)).toBeNull();
    expect(Z95).toBeCloseTo(1.9599639845400536, 14);
  });
  it('holds the share, stays in [0, 1] and narrows as n grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const k = Math.round(share * n);
        const i = wilson(k, n)!;
        const wider = wilson(k, n)!;
        const narrower = wilson(4 * k, 4 * n)!;
        return i.low >= 0 && i.high <= 1 && i.low <= k / n + 1e-12 && i.high >= k / n - 1e-12 && narrower.high - narrower.low <= wider.high - wider.low + 1e-12;
      }),
    );
  });
});

describe('yes/no at a threshold', () => {
  // p and expected: (.9 T) (.6 F) (.3 F) (.2 T) (.55 T)
  // at .5: said true .9 .6 .55 → tp 2 (.9, .55), fp 1 (.6); said false .3 .2 → fn 1 (.2), tn 1 (.3)
  // precision 2/3, recall 2/3, F1 = 4/(4 + 1 + 1) = 2/3, accuracy 3/5, base rate 3/5
  const points = [
    { p: 0.9, expected: true },
    { p: 0.6, expected: false },
    { p: 0.3, expected: false },
    { p: 0.2, expected: true },
    { p: 0.55, expected: true },
  ];
  it('counts and rates match the hand computation', () => {
    const c = countsAt(points, 0.5);
    expect(c).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    const r = rates(c);
    expect(r.precision).toBeCloseTo(2 / 3, 12);
    expect(r.recall).toBeCloseTo(2 / 3, 12);
    expect(r.f1).toBeCloseTo(2 / 3, 12);
    expect(r.accuracy).toBeCloseTo(3 / 5, 12);
    expect(r.base_rate).toBeCloseTo(3 / 5, 12);
    expect(rateIntervals(c).recall).toEqual(wilson(2, 3));
  });
  it('a classifier that never says true has recall 0 and no precision', () => {
    const never = [0.1, 0.18, 0.05, 0.02].map((p, i) => ({ p, expected: i === 0 }));
    const r = rates(countsAt(never, 0.5));
    expect(r.recall).toBe(0);
    expect(r.precision).toBeNull();
    expect(r.f1).toBe(0);
    expect(r.accuracy).toBe(0.75);
  });
  it('the curve has the counts of a direct count at every step', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ p: fc.double({ min: 0, max: 1, noNaN: true }), expected: fc.boolean() }), { maxLength: 60 }), (xs) => {
        const c = curve(xs);
        return (
          c.length === 101 &&
          c.every((point) => {
            const direct = countsAt(xs, point.threshold);
            return direct.tp === point.tp && direct.fp === point.fp && direct.fn === point.fn && direct.tn === point.tn;
          })
        );
      }),
    );
    expect(atThreshold(curve(points), 0.5)).toMatchObject({ threshold: 0.5, tp: 2, fp: 1, fn: 1, tn: 1 });
    expect(atThreshold(curve(points), 0.07)?.threshold).toBe(0.07);
  });
});

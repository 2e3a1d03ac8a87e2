import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auroc, calibrationError, choiceMetrics, quadraticWeightedKappa } from './metrics';
import { quantileSorted } from 'simple-statistics';
import { f1Interval } from '../../../../shared/metrics/binary';
import { weightedAuroc, weightedEce, weightedF1, weightedMacroF1, weightedMean, weightedQwk } from './weighted';
import { bootstrapInterval, pairedBootstrapDelta, resampleCount } from './bootstrap';

const ones = (n: number) => new Uint32Array(n).fill(1);
const close = (a: number | null, b: number | null) => (a === null ? b === null : b !== null && Math.abs(a - b) < 1e-9);
const probability = fc.double({ min: 0, max: 1, noNaN: true });

describe('weighted metrics with every weight 1 are the report metrics (two implementations)', () => {
  it('AUROC, ties included', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ s: fc.integer({ min: 0, max: 5 }).map((v) => v / 5), y: fc.boolean() }), { maxLength: 40 }), (xs) => {
        const scores = Float64Array.from(xs, (x) => x.s);
        const order = Uint32Array.from(scores.keys()).sort((a, b) => scores[a]! - scores[b]!);
        return close(
          weightedAuroc(
            order,
            scores,
            xs.map((x) => x.y),
            ones(xs.length),
          ),
          auroc(
            xs.map((x) => x.s),
            xs.map((x) => x.y),
          ),
        );
      }),
    );
  });
  it('ECE', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ confidence: probability, correct: fc.boolean() }), { maxLength: 40 }), (xs) =>
        close(
          weightedEce(
            xs.map((x) => x.confidence),
            xs.map((x) => x.correct),
            ones(xs.length),
          ),
          calibrationError(xs).ece,
        ),
      ),
    );
  });
  it('macro-F1', () => {
    const options = ['a', 'b', 'c'];
    fc.assert(
      fc.property(fc.array(fc.record({ p: fc.integer({ min: 0, max: 2 }), e: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 40 }), (xs) => {
        const m = choiceMetrics(
          xs.map((x) => ({ predicted: options[x.p]!, expected: options[x.e]!, probabilities: { [options[x.p]!]: 1 } })),
          options,
        );
        return close(
          weightedMacroF1(
            xs.map((x) => x.p),
            xs.map((x) => x.e),
            3,
            ones(xs.length),
          ),
          m.macro_f1,
        );
      }),
    );
  });
  it('QWK', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { maxLength: 40 }), (xs) =>
        close(
          weightedQwk(
            xs.map((x) => x[0]),
            xs.map((x) => x[1]),
            4,
            ones(xs.length),
          ),
          quadraticWeightedKappa(
            xs.map((x) => x[0]),
            xs.map((x) => x[1]),
            4,
          ),
        ),
      ),
    );
  });
  it('an item of weight 2 counts as two copies of it', () => {
    // F1 of said (T, T, F) truth (T, F, T) with weights (2, 1, 1): tp 2, fp 1, fn 1 → 4/6.
    expect(weightedF1([true, true, false], [true, false, true], [2, 1, 1])).toBeCloseTo(4 / 6, 12);
    expect(weightedMean([1, 4], [3, 1])).toBeCloseTo(7 / 4, 12);
  });
});

describe('percentile bootstrap', () => {
  it('is the same each time, holds the estimate, and agrees with the normal interval of a mean on many items', () => {
    // 400 values, 0..399 mod 10: mean 4.5, sd √8.25 = 2.8723; the normal 95% interval is 4.5 ± 1.96·2.8723/√400 = 4.5 ± .2815.
    const values = Float64Array.from({ length: 400 }, (_, i) => i % 10);
    const a = bootstrapInterval(values.length, (w) => weightedMean(values, w))!;
    const b = bootstrapInterval(values.length, (w) => weightedMean(values, w))!;
    expect(a).toEqual(b);
    expect(a.low).toBeLessThan(4.5);
    expect(a.high).toBeGreaterThan(4.5);
    expect(a.low).toBeCloseTo(4.5 - 0.2815, 1);
    expect(a.high).toBeCloseTo(4.5 + 0.2815, 1);
  });
  it('has no interval for one item, or when the statistic is mostly undefined', () => {
    expect(bootstrapInterval(1, () => 1)).toBeNull();
    expect(bootstrapInterval(50, () => null)).toBeNull();
  });
  it('a paired difference of a metric with itself is exactly 0', () => {
    const values = Float64Array.from({ length: 60 }, (_, i) => (i * 7) % 11);
    expect(
      pairedBootstrapDelta(
        60,
        (w) => weightedMean(values, w),
        (w) => weightedMean(values, w),
      ),
    ).toEqual({ low: 0, high: 0 });
  });
  it('F1 drawn by confusion cell (what the screen computes at any threshold) matches the item bootstrap of weighted F1, a second implementation', () => {
    // 200 items: 30 TP, 10 FP, 20 FN, 140 TN, F1 = 60 / 90. Same distribution, other draws: the bounds agree to about 0.02.
    const cells = [...Array(30).fill([true, true]), ...Array(10).fill([true, false]), ...Array(20).fill([false, true]), ...Array(140).fill([false, false])] as [
      boolean,
      boolean,
    ][];
    const byItem = bootstrapInterval(cells.length, (w) =>
      weightedF1(
        cells.map((c) => c[0]),
        cells.map((c) => c[1]),
        w,
      ),
    )!;
    const byCell = f1Interval({ tp: 30, fp: 10, fn: 20, tn: 140 }, quantileSorted)!;
    expect(Math.abs(byCell.low - byItem.low)).toBeLessThan(0.03);
    expect(Math.abs(byCell.high - byItem.high)).toBeLessThan(0.03);
    expect(byCell.low).toBeLessThan(60 / 90);
    expect(byCell.high).toBeGreaterThan(60 / 90);
  });
  it('F1 by cell: every item a true positive gives [1, 1]; nothing said or true, no interval', () => {
    expect(f1Interval({ tp: 12, fp: 0, fn: 0, tn: 0 }, quantileSorted)).toEqual({ low: 1, high: 1 });
    expect(f1Interval({ tp: 0, fp: 0, fn: 0, tn: 30 }, quantileSorted)).toBeNull();
    expect(f1Interval({ tp: 1, fp: 0, fn: 0, tn: 0 }, quantileSorted)).toBeNull();
  });
  it('uses 1,000 resamples up to 2,000 items and never fewer than 200', () => {
    expect(resampleCount(20)).toBe(1000);
    expect(resampleCount(2000)).toBe(1000);
    expect(resampleCount(10_000)).toBe(200);
    expect(resampleCount(1_000_000)).toBe(200);
  });
});

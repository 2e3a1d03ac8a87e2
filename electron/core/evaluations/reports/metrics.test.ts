import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate, fitTemperature, scaleNoul, scaleProbabilities, type CalibrationPoint } from '../calibration/calibration';
import { auroc, boxMetrics, calibrationError, choiceMetrics, noulMetrics, percentile, quadraticWeightedKappa, scoreMetrics } from './metrics';

describe('noul metrics', () => {
  // p and expected: (0.9, true) (0.6, false) (0.3, false) (0.2, true)
  // predicted p ≥ 0.5: T T F F → right, wrong, right, wrong: accuracy 2/4 = 0.5
  // brier: (0.1² + 0.6² + 0.3² + 0.8²)/4 = (0.01 + 0.36 + 0.09 + 0.64)/4 = 0.275
  // log loss: −(ln 0.9 + ln 0.4 + ln 0.7 + ln 0.2)/4 = (0.105361 + 0.916291 + 0.356675 + 1.609438)/4 = 0.746941
  // auroc: positives {0.9, 0.2} against negatives {0.6, 0.3}: 0.9 wins both, 0.2 loses both: 2/4 = 0.5
  // confidence max(p, 1 − p): 0.9 0.6 0.7 0.8, one item in each of bins 9, 6, 7, 8, accuracy 1 0 1 0:
  // ECE = (|1 − 0.9| + |0 − 0.6| + |1 − 0.7| + |0 − 0.8|)/4 = 1.8/4 = 0.45
  const m = noulMetrics([
    { p: 0.9, expected: true },
    { p: 0.6, expected: false },
    { p: 0.3, expected: false },
    { p: 0.2, expected: true },
  ]);
  it('matches the hand computation', () => {
    expect(m.accuracy).toBe(0.5);
    expect(m.brier).toBeCloseTo(0.275, 12);
    expect(m.log_loss).toBeCloseTo(0.746941, 6);
    expect(m.auroc).toBe(0.5);
    expect(m.ece).toBeCloseTo(0.45, 12);
    expect(m.reliability.map((b) => [b.lower, b.count, b.accuracy])).toEqual([
      [0.6, 1, 0],
      [0.7, 1, 1],
      [0.8, 1, 0],
      [0.9, 1, 1],
    ]);
  });
  it('counts ties as a half in AUROC, and is null with one class', () => {
    expect(auroc([0.5, 0.5], [true, false])).toBe(0.5);
    expect(auroc([0.2, 0.7, 0.7], [false, true, false])).toBe(0.75);
    expect(auroc([0.2, 0.7], [true, true])).toBeNull();
  });
  it('clips log loss at 1e-15', () => {
    // −ln(1e-15) = 34.538776
    expect(noulMetrics([{ p: 0, expected: true }]).log_loss).toBeCloseTo(34.538776, 5);
  });
});

describe('choice metrics', () => {
  // 1: expected a, chose a, {a .6, b .3, c .1}; 2: expected b, chose a, {a .5, b .4, c .1}; 3: expected c, chose c, no probabilities (c = 1)
  // accuracy 2/3. F1: a: tp 1 fp 1 fn 0 → 2/3; b: tp 0 fn 1 → 0; c: tp 1 → 1; macro (2/3 + 0 + 1)/3 = 5/9
  // brier: (.4² + .3² + .1²) = .26; (.5² + .6² + .1²) = .62; 0 → .88/3 = .293333
  // log loss: −(ln .6 + ln .4 + ln 1)/3 = (.510826 + .916291)/3 = .475705
  // confidence .6 (right, bin 6), .5 (wrong, bin 5), 1.0 (right, last bin): ECE = (.4 + .5 + 0)/3 = .3
  const m = choiceMetrics(
    [
      { predicted: 'a', probabilities: { a: 0.6, b: 0.3, c: 0.1 }, expected: 'a' },
      { predicted: 'a', probabilities: { a: 0.5, b: 0.4, c: 0.1 }, expected: 'b' },
      { predicted: 'c', probabilities: { c: 1 }, expected: 'c' },
    ],
    ['a', 'b', 'c', 'd'],
  );
  it('matches the hand computation', () => {
    expect(m.accuracy).toBeCloseTo(2 / 3, 12);
    expect(m.macro_f1).toBeCloseTo(5 / 9, 12);
    expect(m.brier).toBeCloseTo(0.88 / 3, 12);
    expect(m.log_loss).toBeCloseTo(0.475705, 6);
    expect(m.ece).toBeCloseTo(0.3, 12);
    expect(m.reliability.at(-1)).toEqual({ lower: 0.9, upper: 1, count: 1, confidence: 1, accuracy: 1 });
    expect(m.confusion).toEqual({ a: { a: 1 }, b: { a: 1 }, c: { c: 1 } });
  });
});

describe('score metrics', () => {
  // (score, probabilities, expected) → level: (.4, {0 .6, 1 .4}, 0) → 0; (1, {.25 .5 .25}, 2) → 1;
  // (2, none, 2) → round 2; (.5, {0 .5, 1 .5}, 1) → 0 (lowest index on a tie)
  // mae (.4 + 1 + 0 + .5)/4 = .475; exact [1 0 1 0] → .5
  // QWK over 3 levels, w = (i − j)²/4: observed (e, level) (0,0) (2,1) (2,2) (1,0): Σ w·O = .25 + .25 = .5
  // histograms e [1 1 2], level [2 1 1]; Σ w·he_i·hl_j / N = (1.25 + .75 + 4.5)/4 = 1.625; κ = 1 − .5/1.625 = .692308
  const m = scoreMetrics(
    [
      { score: 0.4, probabilities: { '0': 0.6, '1': 0.4, '2': 0 }, expected: 0 },
      { score: 1, probabilities: { '0': 0.25, '1': 0.5, '2': 0.25 }, expected: 2 },
      { score: 2, expected: 2 },
      { score: 0.5, probabilities: { '0': 0.5, '1': 0.5 }, expected: 1 },
    ],
    3,
  );
  it('matches the hand computation', () => {
    expect(m.mae).toBeCloseTo(0.475, 12);
    expect(m.exact).toBe(0.5);
    expect(m.qwk).toBeCloseTo(0.692308, 6);
  });
  it('QWK is 1 for perfect agreement and null when undefined', () => {
    expect(quadraticWeightedKappa([0, 1, 2], [0, 1, 2], 3)).toBe(1);
    expect(quadraticWeightedKappa([1, 1], [1, 1], 3)).toBeNull();
    expect(quadraticWeightedKappa([0], [0], 1)).toBeNull();
  });
});

describe('box metrics and percentiles', () => {
  it('IoU, mean and pass rate', () => {
    // [0, .5]² against [.25, .75]²: intersection .25² = .0625, union .25 + .25 − .0625 = .4375, IoU = 1/7
    const m = boxMetrics([
      { box: { top: 0, bottom: 0.5, left: 0, right: 0.5 }, expected: { top: 0.25, bottom: 0.75, left: 0.25, right: 0.75 } },
      { box: { top: 0.1, bottom: 0.2, left: 0.1, right: 0.2 }, expected: { top: 0.1, bottom: 0.2, left: 0.1, right: 0.2 } },
    ]);
    expect(m.mean_iou).toBeCloseTo((1 / 7 + 1) / 2, 12);
    expect(m.pass_rate).toBe(0.5);
    expect(m.iou_threshold).toBe(0.5);
  });
  it('interpolates percentiles between ranks', () => {
    // p95 of [10, 20, 30, 40]: rank 3 × .95 = 2.85 → 30 + .85 × 10 = 38.5
    expect(percentile([40, 10, 30, 20], 0.5)).toBe(25);
    expect(percentile([40, 10, 30, 20], 0.95)).toBeCloseTo(38.5, 12);
    expect(percentile([], 0.5)).toBeNull();
  });
});

describe('temperature scaling', () => {
  it('noul: σ(logit(p)/T), the same as softmax over {p, 1 − p}', () => {
    // logit(.8) = ln 4; /2 = ln 2; σ(ln 2) = 2/3
    expect(scaleNoul(0.8, 2)).toBeCloseTo(2 / 3, 12);
    expect(scaleProbabilities({ true: 0.8, false: 0.2 }, 2)['true']).toBeCloseTo(2 / 3, 12);
    expect(scaleProbabilities({ a: 0.7, b: 0.3, c: 0 }, 0.5)).toMatchObject({ c: 0 });
  });
  it('fits T = 2 where a stated 0.9 is right 3 times in 4', () => {
    // Best calibrated p is 0.75: σ(ln 9 / T) = 3/4 ⇔ ln 9 / T = ln 3 ⇔ T = 2
    const points: CalibrationPoint[] = [true, true, true, false].map((y, i) => ({
      position: i,
      probabilities: { true: 0.9, false: 0.1 },
      predicted: 'true',
      expected: String(y),
    }));
    expect(fitTemperature(points)).toBeCloseTo(2, 4);
  });
  it('fits on even positions and reports on odd ones', () => {
    const points: CalibrationPoint[] = Array.from({ length: 40 }, (_, i) => ({
      position: i,
      probabilities: { true: 0.95, false: 0.05 },
      predicted: 'true',
      expected: i % 4 === 3 ? 'false' : 'true',
    }));
    const c = calibrate(points)!;
    // Even positions are all right (i % 4 is 0 or 2), so the fit sharpens: T < 1; odd ones are right half the time.
    expect(c.temperature).toBeLessThan(1);
    expect(c.log_loss_after!).toBeGreaterThan(c.log_loss_before!);
    expect(calibrate(points.slice(0, 1))).toBeNull();
  });
});

/** A seeded generator, so a property's data is a function of what fast-check draws. */
const rng = (seed: number) => () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;

describe('properties', () => {
  it('perfectly calibrated data gives an ECE near 0; a planted over-confident set a high one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (seed) => {
        const r = rng(seed);
        const calibrated = Array.from({ length: 4000 }, () => {
          const p = r();
          return { p, expected: r() < p };
        });
        expect(noulMetrics(calibrated).ece!).toBeLessThan(0.05);
        const overconfident = Array.from({ length: 1000 }, () => ({ p: 0.9 + 0.1 * r(), expected: r() < 0.5 }));
        expect(noulMetrics(overconfident).ece!).toBeGreaterThan(0.3);
      }),
      { numRuns: 20 },
    );
  });

  const noulPoints = fc.array(fc.record({ p: fc.double({ min: 0, max: 1, noNaN: true }), expected: fc.boolean() }), { minLength: 1, maxLength: 60 });
  it('metrics do not depend on item order', () => {
    fc.assert(
      fc.property(noulPoints, fc.integer(), (points, seed) => {
        const r = rng(seed >>> 0);
        const shuffled = points
          .map((x) => ({ x, k: r() }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.x);
        const a = noulMetrics(points);
        const b = noulMetrics(shuffled);
        for (const key of ['accuracy', 'brier', 'log_loss', 'auroc', 'ece'] as const) {
          if (a[key] === null) expect(b[key]).toBeNull();
          else expect(b[key]).toBeCloseTo(a[key], 9);
        }
        expect(b.reliability.map((x) => x.count)).toEqual(a.reliability.map((x) => x.count));
      }),
    );
  });
  it('bin counts sum to N and every bin holds its own confidences', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ confidence: fc.double({ min: 0, max: 1, noNaN: true }), correct: fc.boolean() }), { maxLength: 200 }), (points) => {
        const { reliability, ece } = calibrationError(points);
        expect(reliability.reduce((s, b) => s + b.count, 0)).toBe(points.length);
        for (const b of reliability) {
          expect(b.confidence).toBeGreaterThanOrEqual(b.lower - 1e-12);
          expect(b.confidence).toBeLessThanOrEqual(b.upper + 1e-12);
        }
        if (points.length) expect(ece).toBeGreaterThanOrEqual(0);
      }),
    );
  });
  it('temperature scaling keeps a distribution and its order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        (weights, t) => {
          const total = weights.reduce((a, b) => a + b, 0);
          const probs = Object.fromEntries(weights.map((w, i) => [String(i), w / total]));
          const scaled = scaleProbabilities(probs, t);
          expect(Object.values(scaled).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
          for (let i = 0; i < weights.length; i += 1) {
            for (let j = 0; j < weights.length; j += 1) if (probs[i]! < probs[j]! - 1e-12) expect(scaled[i]!).toBeLessThanOrEqual(scaled[j]! + 1e-12);
          }
        },
      ),
    );
  });
});

describe('yes/no beside its baseline', () => {
  // A classifier like the "urgent" one: 20 tickets, 6 urgent (i = 0, 3, …, 15); P(true) rises from .02 to .18.
  // At 0.5 it says false every time: 14 of 20 right (accuracy .70), none of the 6 urgent found (recall 0),
  // nothing said true (no precision), F1 = 0 / (0 + 0 + 6) = 0; always saying false scores the same .70.
  const points = Array.from({ length: 20 }, (_, i) => ({ p: 0.02 + (0.16 * i) / 19, expected: i % 3 === 0 && i !== 18 }));
  const m = noulMetrics(points);
  it('shows recall 0, no precision, the base rate and the always-false baseline', () => {
    expect(points.filter((x) => x.expected)).toHaveLength(6);
    expect(m.recall).toBe(0);
    expect(m.precision).toBeNull();
    expect(m.f1).toBe(0);
    expect(m.base_rate).toBeCloseTo(6 / 20, 12);
    expect(m.accuracy).toBeCloseTo(14 / 20, 12);
    expect(m.baseline).toMatchObject({ label: 'always false', answer: 'false', accuracy: 14 / 20 });
    expect(m.curve).toHaveLength(101);
    // At 0.1 it says true for p ≥ 0.1: i ≥ 9.5 → i = 10..19, of which 12 and 15 are urgent.
    const at10 = m.curve.find((c) => c.threshold === 0.1)!;
    expect(at10).toMatchObject({ tp: 2, fp: 8, fn: 4, tn: 6 });
  });
  it('the majority baseline of a choice is its most common expected option, ties to the first option', () => {
    const choice = choiceMetrics(
      ['b', 'a', 'b', 'c'].map((e) => ({ predicted: 'a', probabilities: { a: 1 }, expected: e })),
      ['a', 'b', 'c'],
    );
    expect(choice.baseline).toMatchObject({ answer: 'b', accuracy: 0.5, label: 'always “b”' });
    const tie = choiceMetrics(
      ['c', 'b'].map((e) => ({ predicted: 'a', probabilities: { a: 1 }, expected: e })),
      ['a', 'b', 'c'],
    );
    expect(tie.baseline?.answer).toBe('b');
    expect(
      scoreMetrics(
        [0, 2, 2].map((e) => ({ score: 1, expected: e })),
        3,
      ).baseline,
    ).toMatchObject({ answer: '2', label: 'always level 2' });
  });
});

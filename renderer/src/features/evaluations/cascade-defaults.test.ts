import { describe, expect, it } from 'vitest';
import type { CascadePoint, CascadeSingle } from '../../../../shared/schemas/cascade-curve';
import type { ModelReport } from '../../../../shared/schemas/evaluation';
import { cascadePair, distinctPoints, reachableTarget } from './cascade-defaults';

const model = (name: string, cost: number, accuracy: number | null): ModelReport => ({
  model: name,
  items: 40,
  failed: 0,
  cost_usd: cost * 40,
  cost_unknown: 0,
  input_tokens: 0,
  output_tokens: 0,
  latency_ms: { p50: null, p95: null },
  questions: { urgent: { type: 'noul', n: accuracy === null ? 0 : 40, calibration: null, accuracy: accuracy ?? undefined } },
});
const outcome = (accuracy: number | null, cost: number, escalated_items: number) => ({
  accuracy,
  per_question: {},
  cost_per_item: cost,
  escalated: escalated_items / 40,
  escalated_items,
  latency_ms: { mean: null, p50: null, p95: null },
});
const point = (threshold: number, accuracy: number | null, cost: number, items: number): CascadePoint => ({
  threshold,
  condition: { confidenceBelow: threshold },
  ...outcome(accuracy, cost, items),
});
const single = (name: string, accuracy: number | null, cost: number): CascadeSingle => ({ model: name, ...outcome(accuracy, cost, 0) });

describe('cascadePair', () => {
  it('starts on the cheapest model, then the most accurate of the others, whatever order the run lists them in', () => {
    // The review's run: sharp-large listed first.
    const report = { models: [model('sharp-large', 0.00264, 0.95), model('cheap-mini', 0.00006, 0.825), model('baseline-text', 0.0001, 0.65)] };
    expect(cascadePair(report)).toEqual({ first: 1, second: 0 });
  });

  it('takes the cheaper of two equally accurate second models, and a model of unknown accuracy last', () => {
    const report = { models: [model('a', 0.001, 0.6), model('b', 0.01, 0.9), model('c', 0.005, 0.9), model('d', 0.02, null)] };
    expect(cascadePair(report)).toEqual({ first: 0, second: 2 });
    expect(cascadePair({ models: [model('a', 0.001, null), model('b', 0.01, null)] })).toEqual({ first: 0, second: 1 });
  });
});

describe('distinctPoints', () => {
  it('keeps the lowest of thresholds that escalate the same items', () => {
    const points = [point(0, 0.5, 0.001, 0), point(0.05, 0.5, 0.001, 0), point(0.0518, 0.6, 0.002, 3), point(0.06, 0.6, 0.002, 3), point(1, 0.7, 0.01, 40)];
    expect(distinctPoints(points).map((p) => p.threshold)).toEqual([0, 0.0518, 1]);
  });
});

describe('reachableTarget', () => {
  const cheap = single('cheap', 0.825, 0.00006);
  const dear = single('dear', 0.95, 0.00264);
  it('is the best accuracy of a point no model alone beats, rounded down to 0.1%', () => {
    // 0.95 at $0.0027 is beaten by the dear model alone; 0.9375 at $0.0019 is not.
    const points = [point(0, 0.825, 0.00006, 0), point(0.3, 0.9375, 0.0019, 20), point(1, 0.95, 0.0027, 40)];
    expect(reachableTarget(points, [cheap, dear])).toBe(93.7);
  });

  it('is null when no point is judged or every one is beaten', () => {
    expect(reachableTarget([point(0, null, 0.001, 0)], [cheap, dear])).toBeNull();
    expect(reachableTarget([point(1, 0.95, 0.0027, 40)], [cheap, dear])).toBeNull();
  });
});

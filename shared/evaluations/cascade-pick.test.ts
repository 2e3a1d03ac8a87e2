import { describe, expect, it } from 'vitest';
import type { CascadePoint, CascadeSingle } from '../schemas/cascade-curve';
import { dominatedBy, pickPoint } from './cascade-pick';

const outcome = (accuracy: number | null, cost: number, escalated: number) => ({
  accuracy,
  per_question: {},
  cost_per_item: cost,
  escalated,
  escalated_items: Math.round(escalated * 20),
  latency_ms: { mean: null, p50: null, p95: null },
});
const point = (threshold: number, accuracy: number | null, cost: number, escalated: number): CascadePoint => ({
  threshold,
  condition: { question: 'urgent', probabilityBetween: [0.5 - threshold, 0.5 + threshold] },
  ...outcome(accuracy, cost, escalated),
});
const single = (model: string, accuracy: number | null, cost: number): CascadeSingle => ({ model, ...outcome(accuracy, cost, 0) });

// The review's case: cheap-mini then sharp-large on `urgent`. Escalating everything reaches 95% at
// $0.00270 per item (both billed), while sharp-large alone gives 95% at $0.00264.
const cheap = single('sandbox/cheap-mini', 0.825, 0.00006);
const dear = single('sandbox/sharp-large', 0.95, 0.00264);
const points = [point(0, 0.825, 0.00006, 0), point(0.2, 0.9, 0.0011, 0.4), point(0.4, 0.925, 0.0019, 0.7), point(0.5, 0.95, 0.0027, 1)];

describe('dominatedBy', () => {
  it('is the model alone doing at least as well for at most the cost, and better on one', () => {
    expect(dominatedBy(points[3]!, [cheap, dear])).toBe(dear);
    expect(dominatedBy(points[1]!, [cheap, dear])).toBeNull();
    // The first model alone is the point at threshold 0 exactly: equal is not dominated.
    expect(dominatedBy(points[0]!, [cheap, dear])).toBeNull();
    expect(dominatedBy(point(0.1, 0.8, 0.0001, 0.1), [cheap, dear])).toBe(cheap);
    expect(dominatedBy(point(0.1, null, 0.0001, 0.1), [cheap, dear])).toBeNull();
    expect(dominatedBy(points[3]!, [single('x', null, 0)])).toBeNull();
  });
});

describe('pickPoint with the models alone', () => {
  it('never picks a threshold the second model alone beats: 95% is reached by no cascade worth running', () => {
    expect(pickPoint(points, { accuracy: 0.95 })).toMatchObject({ reached: true, point: { threshold: 0.5 } });
    const pick = pickPoint(points, { accuracy: 0.95 }, [cheap, dear]);
    expect(pick.reached).toBe(false);
    expect(!pick.reached && pick.closest?.threshold).toBe(0.4);
  });

  it('picks among the others as before', () => {
    expect(pickPoint(points, { accuracy: 0.9 }, [cheap, dear])).toMatchObject({ reached: true, point: { threshold: 0.2 } });
    expect(pickPoint(points, { max_cost_per_item: 0.003 }, [cheap, dear])).toMatchObject({ reached: true, point: { threshold: 0.4 } });
  });

  it('says so when every threshold is beaten by a model alone', () => {
    const pick = pickPoint([point(0.5, 0.95, 0.0027, 1)], { accuracy: 0.9 }, [cheap, dear]);
    expect(pick).toEqual({
      reached: false,
      closest: null,
      message: 'Every threshold does no better than sandbox/sharp-large alone, for no less: it gives 95.0% at $0.00264 per item',
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { ModelReport } from '../../../../shared/schemas/evaluation';
import { costPerItem, percentText, pooledAccuracy, presetOf, questionsRead } from './cascade-run';

const QUESTIONS = { late: { type: 'noul' }, topic: { type: 'choice' }, level: { type: 'score' } };

const model = (questions: ModelReport['questions'], items = 10, cost = 0.002): ModelReport => ({
  model: 'a → b',
  items,
  failed: 0,
  cost_usd: cost,
  cost_unknown: 0,
  input_tokens: 0,
  output_tokens: 0,
  latency_ms: { p50: null, p95: null },
  questions,
});

describe("a cascade variant's figures, as the curve counts them", () => {
  it('reads the questions a condition names, and every question of its kinds for a leaf that names none', () => {
    expect(questionsRead({ question: 'topic', confidenceBelow: 0.6 }, QUESTIONS)).toEqual(['topic']);
    expect(questionsRead({ confidenceBelow: 0.6 }, QUESTIONS)).toEqual(['topic', 'level']);
    expect(questionsRead({ probabilityBetween: [0.4, 0.6] }, QUESTIONS)).toEqual(['late']);
    expect(
      questionsRead({ any: [{ question: 'late', probabilityBetween: [0.4, 0.6] }, { all: [{ question: 'level', confidenceBelow: 0.5 }] }] }, QUESTIONS),
    ).toEqual(['late', 'level']);
  });

  it('pools accuracy over judged pairs, each question weighted by its judged items', () => {
    const m = model({
      topic: { type: 'choice', n: 10, calibration: null, accuracy: 0.9 },
      level: { type: 'score', n: 5, calibration: null, exact: 0.6 },
    });
    expect(pooledAccuracy(m, ['topic'])).toBeCloseTo(0.9, 12);
    // (9 + 3) / 15, not the mean of 0.9 and 0.6
    expect(pooledAccuracy(m, ['topic', 'level'])).toBeCloseTo(12 / 15, 12);
    expect(pooledAccuracy(m, [])).toBeNull();
    expect(percentText(23 / 24)).toBe('95.8%');
  });

  it('does not pool a box question judged at another IoU than the curve', () => {
    const m = model({ spot: { type: 'box', n: 4, calibration: null, pass_rate: 0.5, iou_threshold: 0.7 } });
    expect(pooledAccuracy(m, ['spot'])).toBeNull();
    const at05 = model({ spot: { type: 'box', n: 4, calibration: null, pass_rate: 0.5, iou_threshold: 0.5 } });
    expect(pooledAccuracy(at05, ['spot'])).toBe(0.5);
  });

  it('costs both stages per answered item', () => {
    expect(costPerItem(model({}, 8, 0.004))).toBeCloseTo(0.0005, 15);
    expect(costPerItem(model({}, 0, 0))).toBeNull();
  });

  it('finds the preset a variant came from only while it is still the same cascade', () => {
    const when = { question: 'topic', confidenceBelow: 0.62 };
    const preset: CascadePreset = {
      name: 'topic-unsure',
      model: 'b',
      first_model: 'a',
      when,
      source: { run_id: 'r', first: 'a', second: 'b', threshold: 0.62, accuracy: 0.95, cost_per_item: 0.0002, escalated: 0.25 },
      created_at: '',
      updated_at: '',
    };
    const variant = { name: 'a → b (topic-unsure)', model: 'a', label: 'topic-unsure', cascade: { model: 'b', when } };
    expect(presetOf(variant, [preset])).toBe(preset);
    // Saved again with another threshold: no longer the point this run was started from.
    expect(presetOf(variant, [{ ...preset, when: { question: 'topic', confidenceBelow: 0.7 } }])).toBeNull();
    expect(presetOf({ ...variant, model: 'c' }, [preset])).toBeNull();
    expect(presetOf(variant, [{ ...preset, source: null }])).toBeNull();
    expect(presetOf({ ...variant, cascade: null }, [preset])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { CascadePoint } from '../../../../shared/schemas/cascade-curve';
import { adoptable, presetPoint } from './adopt';

const preset = (over: Partial<CascadePreset>): CascadePreset => ({
  name: 'p',
  model: 'acme/large',
  first_model: null,
  when: { confidenceBelow: 0.6 },
  source: null,
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
  ...over,
});
const point = (threshold: number, condition: CascadePoint['condition']): CascadePoint =>
  ({ threshold, condition, accuracy: 0.9, cost_per_item: 0.001, escalated: 0.2 }) as CascadePoint;
const curve = { first: { model: 'acme/small' }, second: { model: 'acme/large' } } as never;

describe('adopting a threshold into a preset', () => {
  it("offers only the presets that send this curve's first model's doubts to its second", () => {
    const list = [
      preset({ name: 'any first' }),
      preset({ name: 'same pair', first_model: 'acme/small' }),
      preset({ name: 'other first', first_model: 'acme/medium' }),
      preset({ name: 'other second', model: 'acme/huge' }),
    ];
    expect(adoptable(list, curve).map((p) => p.name)).toEqual(['any first', 'same pair']);
  });

  it("finds the preset's point by its condition, whatever the order of its keys, and none for a condition the curve lacks", () => {
    const points = [point(0.5, { question: 'late', probabilityBetween: [0.3, 0.7] }), point(0.6, { confidenceBelow: 0.6 })];
    expect(presetPoint(preset({ when: { probabilityBetween: [0.3, 0.7], question: 'late' } as never }), { points })?.threshold).toBe(0.5);
    expect(presetPoint(preset({}), { points })?.threshold).toBe(0.6);
    expect(presetPoint(preset({ when: { confidenceBelow: 0.7 } }), { points })).toBeNull();
  });
});

import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeCurve, CascadePoint } from '../../../../shared/schemas/cascade-curve';
import { formatUsd } from '../../../../shared/money/format-usd';
import { percentText } from './cascade-run';

/** A JSON value with every object's keys in order, so that equal conditions are equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}
const sameCondition = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The presets a threshold of this curve can move: those that send to its second model, from its first (or from the request's own model). */
export function adoptable(presets: readonly CascadePreset[], curve: Pick<CascadeCurve, 'first' | 'second'>): CascadePreset[] {
  return presets.filter((p) => p.model === curve.second.model && (p.first_model === null || p.first_model === curve.first.model));
}

/**
 * Where a preset stands on this curve today: the curve's point with the preset's very condition;
 * null when the curve has none (its condition is of another family or question, or a threshold
 * this run's answers never cross), in which case only the preset's recorded source can be shown.
 */
export function presetPoint(preset: Pick<CascadePreset, 'when'>, curve: Pick<CascadeCurve, 'points'>): CascadePoint | null {
  return curve.points.find((p) => sameCondition(p.condition, preset.when)) ?? null;
}

/** A point in words: "threshold 0.6: 91.0% at $0.0012 per item, 20.0% escalated". */
export function pointText(p: Pick<CascadePoint, 'threshold' | 'accuracy' | 'cost_per_item' | 'escalated'>): string {
  return `threshold ${p.threshold}: ${percentText(p.accuracy)} at ${formatUsd(p.cost_per_item)} per item, ${percentText(p.escalated)} escalated`;
}

/** A curve's point as a preset takes it: its condition, and where it came from (the run, both models, the point's figures). */
export function fromPoint(run: Pick<EvalRun, 'id'>, curve: Pick<CascadeCurve, 'first' | 'second'>, point: CascadePoint) {
  return {
    when: point.condition,
    source: {
      run_id: run.id,
      first: curve.first.model,
      second: curve.second.model,
      threshold: point.threshold,
      accuracy: point.accuracy,
      cost_per_item: point.cost_per_item,
      escalated: point.escalated,
    },
  };
}

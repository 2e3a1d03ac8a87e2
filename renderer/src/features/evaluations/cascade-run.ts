/**
 * What a cascade variant of a run scored and cost, read as the Cascade panel reads a curve's point
 * (the same figures, the same rounding), and the point of the saved preset it was started from, so
 * the report can say whether the run landed where the curve said.
 */
import type { CascadeCondition } from '../../../../shared/schemas/cascade';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { EvalRun, ModelReport } from '../../../../shared/schemas/evaluation';

type Kind = 'noul' | 'choice' | 'score' | 'box';
/** The report's metric for the figure the curve calls accuracy, by question type (cascade-curve.ts METRIC). */
const METRIC_KEY: Record<Kind, string> = { noul: 'accuracy', choice: 'accuracy', score: 'exact', box: 'pass_rate' };
const READS_CONFIDENCE: ReadonlySet<string> = new Set(['choice', 'score', 'box']);

export const percentText = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** The questions a condition reads: those it names, and every question of a leaf's kinds where a leaf names none. */
export function questionsRead(condition: CascadeCondition, questions: Readonly<Record<string, { type: string }>>): string[] {
  const read = new Set<string>();
  const walk = (c: CascadeCondition) => {
    if ('any' in c) return c.any.forEach(walk);
    if ('all' in c) return c.all.forEach(walk);
    if ('atLeast' in c) return c.atLeast.conditions.forEach(walk);
    if (c.question !== undefined) return void read.add(c.question);
    const reads = 'probabilityBetween' in c ? (type: string) => type === 'noul' : (type: string) => READS_CONFIDENCE.has(type);
    for (const [name, q] of Object.entries(questions)) if (reads(q.type)) read.add(name);
  };
  walk(condition);
  return Object.keys(questions).filter((name) => read.has(name));
}

/**
 * Correct over judged (item, question) pairs of `names`, from the report's per-question figures
 * (each weighted by its judged items): the curve's accuracy. null when nothing was judged, or a box
 * question is judged at another IoU than the curve's 0.5.
 */
export function pooledAccuracy(model: ModelReport, names: readonly string[]): number | null {
  let correct = 0;
  let judged = 0;
  for (const name of names) {
    const q = model.questions[name];
    if (!q) continue;
    if (q.type === 'box' && q['iou_threshold'] !== 0.5) return null;
    const value = q[METRIC_KEY[q.type as Kind] ?? 'accuracy'];
    if (typeof value !== 'number' || q.n === 0) continue;
    correct += value * q.n;
    judged += q.n;
  }
  return judged === 0 ? null : correct / judged;
}

/** USD per answered item, both stages (results of unknown cost counted as 0, as the curve counts them). */
export function costPerItem(model: ModelReport): number | null {
  return model.items > 0 ? model.cost_usd / model.items : null;
}

const sameCondition = (a: CascadeCondition, b: CascadeCondition) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The preset a cascade variant was started from: labelled with its name and still the same cascade
 * (a preset saved again since with another threshold is not it), with the curve point it came from.
 */
export function presetOf(variant: EvalRun['variants'][number], presets: readonly CascadePreset[]): CascadePreset | null {
  const cascade = variant.cascade;
  if (!cascade || variant.label === null) return null;
  return (
    presets.find(
      (p) =>
        p.name === variant.label &&
        p.model === cascade.model &&
        (p.first_model === null || p.first_model === variant.model) &&
        sameCondition(p.when, cascade.when) &&
        p.source !== null,
    ) ?? null
  );
}

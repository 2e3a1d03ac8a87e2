import { z } from 'zod';
import { CascadeConditionSchema, type CascadeCondition } from './cascade';

/**
 * A cascade between two models already run on the same labelled dataset, computed offline (no
 * request sent): for each threshold of a condition family, what the cascade would have scored, cost
 * and taken. See electron/core/evaluations/reports/cascade-curve.ts for how each figure is counted.
 */
export const CascadeFamilySchema = z.enum(['confidenceBelow', 'probabilityBetween']);
export type CascadeFamily = z.infer<typeof CascadeFamilySchema>;

const LatencySchema = z.object({ mean: z.number().nullable(), p50: z.number().nullable(), p95: z.number().nullable() });

/** What one configuration scored, cost and took over the items both models answered. */
const OutcomeShape = {
  /** Correct over judged (item, question) pairs of the questions the condition reads; null when none was judged. */
  accuracy: z.number().nullable(),
  /** The same share for every question of the run (the whole request goes to the second model). */
  per_question: z.record(z.string(), z.number().nullable()),
  /** USD per item: the first stage always, the second where escalated (both billed). */
  cost_per_item: z.number(),
  /** Share of items escalated, and how many. */
  escalated: z.number(),
  escalated_items: z.number().int(),
  /** ms per item: the first stage, plus the second where escalated. */
  latency_ms: LatencySchema,
};

export const CascadePointSchema = z.object({
  /** confidenceBelow: the bound; probabilityBetween: the band's half-width around 0.5. */
  threshold: z.number(),
  condition: CascadeConditionSchema,
  ...OutcomeShape,
});
export type CascadePoint = Omit<z.infer<typeof CascadePointSchema>, 'condition'> & { condition: CascadeCondition };

export const CascadeSingleSchema = z.object({ model: z.string(), ...OutcomeShape });
export type CascadeSingle = z.infer<typeof CascadeSingleSchema>;

export const CascadeCurveSchema = z.object({
  first: CascadeSingleSchema,
  second: CascadeSingleSchema,
  family: CascadeFamilySchema,
  /** The question the condition reads; null: every question of its kinds. */
  question: z.string().nullable(),
  /** The questions the condition reads (what `accuracy` is over). */
  questions: z.array(z.string()),
  /** What `accuracy` is for those questions' kinds: accuracy (yes/no, choice), exact level (score), IoU ≥ 0.5 (box). */
  metric: z.string(),
  /** Items both models answered: the curve's items. */
  items: z.number().int(),
  /** Items left out because a model has no answer for them (failed, or not yet sent): counted here, not in the curve. */
  excluded: z.object({ total: z.number().int(), first_failed: z.number().int(), second_failed: z.number().int() }),
  /** Results whose cost is unknown (counted as 0 in cost_per_item). */
  cost_unknown: z.number().int(),
  points: z.array(CascadePointSchema),
});
export type CascadeCurve = Omit<z.infer<typeof CascadeCurveSchema>, 'points'> & { points: CascadePoint[] };

/** What the analyst asks of the curve: at least this accuracy at the least cost, or the best accuracy under a cost ceiling. */
export const CascadeTargetSchema = z.union([
  z.object({ accuracy: z.number().min(0).max(1) }).strict(),
  z.object({ max_cost_per_item: z.number().min(0) }).strict(),
]);
export type CascadeTarget = z.infer<typeof CascadeTargetSchema>;

export type CascadePick = { reached: true; point: CascadePoint; message: string } | { reached: false; closest: CascadePoint | null; message: string };

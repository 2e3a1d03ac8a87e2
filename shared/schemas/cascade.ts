import { z } from 'zod';

/**
 * Cascade conditions, as Vercel's AI Gateway documents its decision fallbacks
 * (`providerOptions.gateway.models`: one conditional `{model, when}` entry first): `confidenceBelow`
 * for choice and score questions (here also box), `probabilityBetween: [lo, hi]` for yes/no questions
 * (P(true)), combined with `any`, `all` and `atLeast`. At most 20 conditions a list, nesting at most 5,
 * question ids 1–256 characters, bounds finite, in [0, 1] and ordered (inclusive).
 */
export const MAX_CONDITIONS = 20;
export const MAX_NESTING = 5;

const bound = z.number().min(0, 'must be at least 0').max(1, 'must be at most 1');
const questionId = z.string().min(1, 'a question id of at least 1 character').max(256, 'a question id of at most 256 characters');

export const ConfidenceBelowSchema = z.strictObject({ question: questionId.optional(), confidenceBelow: bound });
export const ProbabilityBetweenSchema = z.strictObject({
  question: questionId.optional(),
  probabilityBetween: z.tuple([bound, bound]).refine(([lo, hi]) => lo <= hi, 'the bounds must be ordered: [low, high]'),
});

export type CascadeCondition =
  | z.infer<typeof ConfidenceBelowSchema>
  | z.infer<typeof ProbabilityBetweenSchema>
  | { any: CascadeCondition[] }
  | { all: CascadeCondition[] }
  | { atLeast: { count: number; conditions: CascadeCondition[] } };

const list = (): z.ZodType<CascadeCondition[]> =>
  z
    .array(z.lazy(() => CascadeConditionSchema))
    .min(1, 'at least 1 condition')
    .max(MAX_CONDITIONS, `at most ${MAX_CONDITIONS} conditions`);

const AnySchema = z.strictObject({ any: z.lazy(list) });
const AllSchema = z.strictObject({ all: z.lazy(list) });
const AtLeastSchema = z.strictObject({
  atLeast: z
    .strictObject({ count: z.number().int('a whole number').min(1, 'at least 1'), conditions: z.lazy(list) })
    .refine((a) => a.count <= a.conditions.length, 'count must not exceed the number of conditions'),
});

/** The schema for a condition, chosen by the key it has, so that an error names what is wrong inside it. */
function schemaFor(value: unknown): z.ZodType | null {
  if (typeof value !== 'object' || value === null) return null;
  if ('any' in value) return AnySchema;
  if ('all' in value) return AllSchema;
  if ('atLeast' in value) return AtLeastSchema;
  if ('probabilityBetween' in value) return ProbabilityBetweenSchema;
  if ('confidenceBelow' in value) return ConfidenceBelowSchema;
  return null;
}

export const CascadeConditionSchema = z.unknown().superRefine((value, ctx) => {
  const schema = schemaFor(value);
  if (!schema) {
    ctx.addIssue({ code: 'custom', message: 'a condition is one of {confidenceBelow}, {probabilityBetween}, {any}, {all} or {atLeast}' });
    return;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return;
  }
  if (depthOf(value as CascadeCondition) > MAX_NESTING) ctx.addIssue({ code: 'custom', message: `conditions nest at most ${MAX_NESTING} deep` });
}) as unknown as z.ZodType<CascadeCondition>;

/** How deep a condition nests: a leaf is 1. */
export function depthOf(condition: CascadeCondition): number {
  const children = 'any' in condition ? condition.any : 'all' in condition ? condition.all : 'atLeast' in condition ? condition.atLeast.conditions : null;
  return children ? 1 + Math.max(0, ...children.map(depthOf)) : 1;
}

/** The second stage of a cascade: the model asked again, and when. */
export const CascadeSchema = z.strictObject({
  model: z.string().min(1, 'a model id'),
  when: CascadeConditionSchema,
});
export type Cascade = z.infer<typeof CascadeSchema>;

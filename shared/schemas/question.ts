import { z } from 'zod';
import { namedRecord } from './key';
import { GuidanceSchema } from './guidance';

/** Spec 2.2, noul: optional criteria with both `true` and `false`. */
export const NoulQuestionSchema = z.strictObject({
  type: z.literal('noul'),
  instructions: GuidanceSchema,
  criteria: z.strictObject({ true: GuidanceSchema, false: GuidanceSchema }).optional(),
});

/** Spec 2.2, choice: criteria maps each option name to guidance or null. */
export const ChoiceQuestionSchema = z.strictObject({
  type: z.literal('choice'),
  instructions: GuidanceSchema,
  criteria: namedRecord(z.string().min(1, 'option names must not be empty'), GuidanceSchema.nullable()).refine(
    (options) => Object.keys(options).length >= 1,
    'a choice question needs at least 1 option',
  ),
});

/** Spec 2.2 and 8, score: at least one level; the array position is the level index. */
export const ScoreQuestionSchema = z.strictObject({
  type: z.literal('score'),
  instructions: GuidanceSchema,
  criteria: z.array(GuidanceSchema).min(1, 'a score question needs at least 1 criteria item (one per level)'),
});

/** Spec 2.2, box: only `type` and `instructions`. */
export const BoxQuestionSchema = z.strictObject({
  type: z.literal('box'),
  instructions: GuidanceSchema,
});

export const QuestionSchema = z.discriminatedUnion('type', [NoulQuestionSchema, ChoiceQuestionSchema, ScoreQuestionSchema, BoxQuestionSchema]);

export type NoulQuestion = z.infer<typeof NoulQuestionSchema>;
export type ChoiceQuestion = z.infer<typeof ChoiceQuestionSchema>;
export type ScoreQuestion = z.infer<typeof ScoreQuestionSchema>;
export type BoxQuestion = z.infer<typeof BoxQuestionSchema>;
export type Question = z.infer<typeof QuestionSchema>;
export type QuestionType = Question['type'];
export const QUESTION_TYPES = ['noul', 'choice', 'score', 'box'] as const satisfies readonly QuestionType[];

import { z } from 'zod';
import type { Edges } from '../geometry/iou';
import { GuidanceSchema } from './guidance';

/** A probability in [0, 1]. Meanings are documented in docs/API.md. */
const probability = z.number().min(0).max(1);

export const NoulAnswerSchema = z.object({ type: z.literal('noul'), noul: probability });

export const ChoiceAnswerSchema = z.object({
  type: z.literal('choice'),
  choice: z.string(),
  confidence: probability.optional(),
  probabilities: z.record(z.string(), probability).optional(),
});

export const ScoreAnswerSchema = z.object({
  type: z.literal('score'),
  score: z.number().nonnegative(),
  confidence: probability.optional(),
  probabilities: z.record(z.string().regex(/^\d+$/), probability).optional(),
  legend: z.record(z.string().regex(/^\d+$/), GuidanceSchema).optional(),
});

/** Fractions of the image, origin top-left: top < bottom, left < right (a box of no area locates nothing, and is no answer). */
export const BoxSchema = z
  .object({ top: probability, bottom: probability, left: probability, right: probability })
  .refine((b) => b.top < b.bottom && b.left < b.right, 'box edges out of order or of no area: need top < bottom and left < right');
export type Box = z.infer<typeof BoxSchema>;
// The schema's shape is the one box shape (shared/geometry/iou.ts): checked here, at compile time.
const sameShape: Edges = {} as Box;
void sameShape;

export const BoxAnswerSchema = z.object({
  type: z.literal('box'),
  box: BoxSchema,
  confidence: probability.optional(),
});

export const AnswerSchema = z.discriminatedUnion('type', [NoulAnswerSchema, ChoiceAnswerSchema, ScoreAnswerSchema, BoxAnswerSchema]);
export type NoulAnswer = z.infer<typeof NoulAnswerSchema>;
export type ChoiceAnswer = z.infer<typeof ChoiceAnswerSchema>;
export type ScoreAnswer = z.infer<typeof ScoreAnswerSchema>;
export type BoxAnswer = z.infer<typeof BoxAnswerSchema>;
export type Answer = z.infer<typeof AnswerSchema>;

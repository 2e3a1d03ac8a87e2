import { z } from 'zod';
import { AnswerSchema } from './answer';

export const UsageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Spec 2.3. */
export const DecisionsResponseSchema = z.object({
  answers: z.record(z.string(), AnswerSchema),
  model: z.string(),
  id: z.string().optional(),
  provider: z.string().optional(),
  usage: UsageSchema,
});
export type DecisionsResponse = z.infer<typeof DecisionsResponseSchema>;

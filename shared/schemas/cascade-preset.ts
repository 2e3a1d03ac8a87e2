import { z } from 'zod';
import { CascadeConditionSchema, type CascadeCondition } from './cascade';

/** A preset's name: what requests and question sets name it by. */
export const CascadePresetNameSchema = z
  .string()
  .trim()
  .min(1, 'a preset needs a name')
  .max(100, 'a preset name of at most 100 characters')
  .regex(/^[\w.:\- ]+$/, 'letters, digits, spaces and . _ : - only');

/**
 * A named cascade: the model asked again (`model`) when the condition (`when`) holds on the first
 * model's answers; `first_model` when the preset names the first model too (else the request's own).
 * `source` says where its threshold came from (an evaluation run's curve), when it came from one.
 */
export const CascadePresetSchema = z.object({
  name: z.string(),
  model: z.string(),
  first_model: z.string().nullable(),
  when: CascadeConditionSchema,
  source: z
    .object({
      run_id: z.string(),
      first: z.string(),
      second: z.string(),
      threshold: z.number(),
      accuracy: z.number().nullable(),
      cost_per_item: z.number(),
      escalated: z.number(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CascadePreset = Omit<z.infer<typeof CascadePresetSchema>, 'when'> & { when: CascadeCondition };

export const CascadePresetInputSchema = z
  .object({
    name: CascadePresetNameSchema,
    model: z.string().min(1, 'a model id'),
    first_model: z.string().min(1).nullable().optional(),
    when: CascadeConditionSchema,
    source: CascadePresetSchema.shape.source.optional(),
  })
  .strict();
export type CascadePresetInput = z.output<typeof CascadePresetInputSchema>;

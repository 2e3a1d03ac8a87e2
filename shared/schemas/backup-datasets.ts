import { z } from 'zod';
import { StateSchema } from './decisions-request';
import { ExpectedSchema } from './evaluation';

const edges = z.strictObject({
  top: z.number().min(0).max(1),
  left: z.number().min(0).max(1),
  bottom: z.number().min(0).max(1),
  right: z.number().min(0).max(1),
});

/**
 * One dataset in a backup: its items in order (state and expected answers), the pixel sizes of its
 * images read for box review, and the box verdicts given on it (per item, question and model, with
 * the boxes and truth they judged). Evaluation runs are not in it: a verdict comes back without its run.
 */
export const BackupDatasetSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  created_at: z.string(),
  items: z.array(z.strictObject({ id: z.string().min(1).max(300), state: StateSchema, expected: ExpectedSchema })),
  image_sizes: z
    .array(z.strictObject({ item_id: z.string(), width: z.number().int().positive().nullable(), height: z.number().int().positive().nullable() }))
    .default([]),
  box_verdicts: z
    .array(
      z.strictObject({
        item_id: z.string(),
        question: z.string().max(200),
        model: z.string().max(400),
        verdict: z.enum(['accepted', 'rejected']).nullable(),
        note: z.string().max(2000),
        answered_at: z.string().nullable(),
        answers: z.record(z.string(), edges),
        truth: z.array(edges.extend({ label: z.string().min(1).max(100).optional() })).nullable(),
        updated_at: z.string(),
      }),
    )
    .default([]),
});
export type BackupDataset = z.infer<typeof BackupDatasetSchema>;

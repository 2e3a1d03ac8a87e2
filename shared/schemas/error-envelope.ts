import { z } from 'zod';

/** Spec 2.7 and 7: `error.code` equals the HTTP status. */
export const ErrorBodySchema = z.object({
  code: z.number().int(),
  message: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorEnvelopeSchema = z.object({
  error: ErrorBodySchema,
  user_id: z.string().nullable().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

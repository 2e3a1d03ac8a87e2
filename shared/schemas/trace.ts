import { z } from 'zod';

/** Spec 2.6: known string keys with special handling; any other key is custom metadata. */
export const TraceConfigSchema = z.looseObject({
  trace_id: z.string().optional(),
  trace_name: z.string().optional(),
  span_name: z.string().optional(),
  generation_name: z.string().optional(),
  parent_span_id: z.string().optional(),
});
export type TraceConfig = z.infer<typeof TraceConfigSchema>;
export const TRACE_KNOWN_KEYS = ['trace_id', 'trace_name', 'span_name', 'generation_name', 'parent_span_id'] as const;

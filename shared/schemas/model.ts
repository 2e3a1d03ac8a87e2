import { z } from 'zod';
import { EndpointSchema } from './endpoint';

export const ModelIdSchema = z.string().regex(/^[A-Za-z0-9][\w.-]*\/[\w.:-]+$/, 'expected a model id of the form author/slug');

export const ArchitectureSchema = z.object({
  input_modalities: z.array(z.string()),
  output_modalities: z.array(z.string()),
  modality: z.string().nullable(),
  instruct_type: z.string().nullable(),
  tokenizer: z.string().nullable(),
});
export type Architecture = z.infer<typeof ArchitectureSchema>;

/** Spec 2.8: a model and every provider endpoint serving it. */
export const ModelWithEndpointsSchema = z.object({
  id: ModelIdSchema,
  name: z.string(),
  created: z.number().int(),
  description: z.string(),
  architecture: ArchitectureSchema,
  endpoints: z.array(EndpointSchema),
});
export type ModelWithEndpoints = z.infer<typeof ModelWithEndpointsSchema>;

export const ModelListingSchema = z.object({ data: ModelWithEndpointsSchema });
export type ModelListing = z.infer<typeof ModelListingSchema>;

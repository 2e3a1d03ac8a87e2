import { z } from 'zod';
import { EndpointPricingSchema } from './endpoint';

/**
 * One model of GET /api/v1/models, in the shape of OpenRouter's models list (what @openrouter/sdk's
 * `models.list` parses). Prices are USD per token as strings, "-1" when no endpoint's price is known.
 */
export const ModelsListItemSchema = z.object({
  id: z.string(),
  canonical_slug: z.string(),
  name: z.string(),
  created: z.number().int(),
  description: z.string(),
  context_length: z.number().int().nullable(),
  architecture: z.object({
    input_modalities: z.array(z.string()),
    output_modalities: z.array(z.string()),
    modality: z.string().nullable(),
    instruct_type: z.string().nullable().optional(),
    tokenizer: z.string().optional(),
  }),
  pricing: EndpointPricingSchema,
  top_provider: z.object({ context_length: z.number().int().nullable(), max_completion_tokens: z.number().int().nullable(), is_moderated: z.boolean() }),
  per_request_limits: z.null(),
  supported_parameters: z.array(z.string()),
  supported_voices: z.null(),
  default_parameters: z.null(),
  links: z.object({ details: z.string() }),
  /** How many provider endpoints serve the model here (not in OpenRouter's shape; clients ignore it). */
  endpoint_count: z.number().int().nonnegative(),
});
export type ModelsListItem = z.infer<typeof ModelsListItemSchema>;

export const ModelsListSchema = z.object({
  data: z.array(ModelsListItemSchema),
  links: z.object({ next: z.string().nullable() }),
  total_count: z.number().int().nonnegative(),
});
export type ModelsList = z.infer<typeof ModelsListSchema>;

import { z } from 'zod';
import { QuantizationSchema } from './provider-preferences';

/** p50/p75/p90/p99 of one measured quantity over a window. */
export const PercentileStatsSchema = z.object({
  p50: z.number(),
  p75: z.number(),
  p90: z.number(),
  p99: z.number(),
});
export type PercentileStats = z.infer<typeof PercentileStatsSchema>;

/** Decimal numbers carried as strings, USD per token (prompt, completion), per request, per image. */
export const EndpointPricingSchema = z.object({
  prompt: z.string(),
  completion: z.string(),
  request: z.string().optional(),
  image: z.string().optional(),
  input_cache_read: z.string().optional(),
  input_cache_write: z.string().optional(),
});
export type EndpointPricing = z.infer<typeof EndpointPricingSchema>;

export const ToolChoiceSupportSchema = z.object({
  auto: z.boolean(),
  function: z.boolean(),
  none: z.boolean(),
  required: z.boolean(),
});

/**
 * Spec 2.9. Measured figures are null when the window had no traffic: never a made-up value.
 * `status`: 0 healthy, -1 degraded, -2 paused by the circuit breaker, -3 down (see docs/API.md).
 */
export const EndpointSchema = z.object({
  name: z.string(),
  model_id: z.string(),
  model_name: z.string(),
  provider_name: z.string(),
  tag: z.string(),
  context_length: z.number().int(),
  max_completion_tokens: z.number().int().nullable(),
  max_prompt_tokens: z.number().int().nullable(),
  pricing: EndpointPricingSchema,
  quantization: QuantizationSchema.nullable(),
  status: z.number().int(),
  supported_parameters: z.array(z.string()),
  supports_diarization: z.boolean(),
  supports_implicit_caching: z.boolean(),
  supports_tool_choice: ToolChoiceSupportSchema,
  latency_last_30m: PercentileStatsSchema.nullable(),
  throughput_last_30m: PercentileStatsSchema.nullable(),
  uptime_last_5m: z.number().nullable(),
  uptime_last_30m: z.number().nullable(),
  uptime_last_1d: z.number().nullable(),
});
export type Endpoint = z.infer<typeof EndpointSchema>;

/** Spec 2.9, the ZDR preview's additions. */
export const ZdrEndpointSchema = EndpointSchema.extend({
  native_tools: z.record(z.string(), z.unknown()),
  supports_image_reference: z.boolean(),
  supports_multiple_audio_references: z.boolean(),
  supports_voice_cloning: z.boolean(),
});
export type ZdrEndpoint = z.infer<typeof ZdrEndpointSchema>;

export const ZdrListingSchema = z.object({ data: z.array(ZdrEndpointSchema) });
export type ZdrListing = z.infer<typeof ZdrListingSchema>;

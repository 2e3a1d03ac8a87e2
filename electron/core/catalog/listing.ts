import type { Endpoint, ZdrEndpoint } from '../../../shared/schemas/endpoint';
import type { ModelWithEndpoints } from '../../../shared/schemas/model';
import type { EndpointFigures, EndpointMetrics } from '../metrics/endpoint-metrics';
import type { HealthSnapshot } from '../metrics/health-snapshot';
import { endpointSlug, type Catalog } from './catalog';
import type { CatalogEndpoint, CatalogModel } from './types';

/**
 * Wire sentinels for values no source gave, where the spec's record (and the official clients)
 * require a value: documented in docs/API.md and shown as "unknown" in the UI.
 */
export const UNKNOWN_PRICE = '-1';
export const UNKNOWN_CONTEXT_LENGTH = 0;

export const ENDPOINT_STATUS = { healthy: 0, degraded: -1, paused: -2, down: -3 } as const;

export function endpointStatus(figures: EndpointFigures, health: HealthSnapshot): number {
  if (health.paused) return ENDPOINT_STATUS.paused;
  if (figures.uptime5m === 0 && figures.attempts5m >= 3) return ENDPOINT_STATUS.down;
  if (figures.uptime5m !== null && figures.uptime5m < 90) return ENDPOINT_STATUS.degraded;
  return ENDPOINT_STATUS.healthy;
}

export interface EndpointView {
  endpoint: CatalogEndpoint;
  figures: EndpointFigures;
  health: HealthSnapshot;
}

export function endpointRecord({ endpoint, figures, health }: EndpointView): Endpoint {
  const pricing: Endpoint['pricing'] = {
    prompt: endpoint.pricing.prompt ?? UNKNOWN_PRICE,
    completion: endpoint.pricing.completion ?? UNKNOWN_PRICE,
  };
  if (endpoint.pricing.request !== undefined) pricing.request = endpoint.pricing.request;
  if (endpoint.pricing.image !== undefined) pricing.image = endpoint.pricing.image;
  if (endpoint.pricing.input_cache_read !== undefined) pricing.input_cache_read = endpoint.pricing.input_cache_read;
  if (endpoint.pricing.input_cache_write !== undefined) pricing.input_cache_write = endpoint.pricing.input_cache_write;
  return {
    name: `${endpoint.provider.name} | ${endpoint.model.id}`,
    model_id: endpoint.model.id,
    model_name: endpoint.model.name,
    provider_name: endpoint.provider.name,
    tag: endpointSlug(endpoint),
    context_length: endpoint.contextLength ?? UNKNOWN_CONTEXT_LENGTH,
    max_completion_tokens: endpoint.maxCompletionTokens,
    max_prompt_tokens: endpoint.maxPromptTokens,
    pricing,
    quantization: endpoint.quantization,
    status: endpointStatus(figures, health),
    supported_parameters: [...endpoint.supportedParameters],
    supports_diarization: false,
    supports_implicit_caching: endpoint.supportsImplicitCaching,
    supports_tool_choice: { auto: false, function: false, none: false, required: false },
    latency_last_30m: figures.latency,
    throughput_last_30m: figures.throughput,
    uptime_last_5m: figures.uptime5m,
    uptime_last_30m: figures.uptime30m,
    uptime_last_1d: figures.uptime1d,
  };
}

export function zdrRecord(view: EndpointView): ZdrEndpoint {
  return {
    ...endpointRecord(view),
    native_tools: {},
    supports_image_reference: false,
    supports_multiple_audio_references: false,
    supports_voice_cloning: false,
  };
}

export function modelRecord(model: CatalogModel, views: readonly EndpointView[]): ModelWithEndpoints {
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: model.architecture,
    endpoints: views.map(endpointRecord),
  };
}

/**
 * What the listings show (spec 4.2 and 4.3, and the inspector's Endpoints): each endpoint with its
 * figures computed now (not the router's cache) and its health.
 */
export class Listings {
  constructor(
    private readonly deps: {
      catalog: Catalog;
      metrics: EndpointMetrics;
      health: { snapshot(endpointId: string): HealthSnapshot };
    },
  ) {}

  view(endpoint: CatalogEndpoint): EndpointView {
    return { endpoint, figures: this.deps.metrics.figures(endpoint.id, { fresh: true }), health: this.deps.health.snapshot(endpoint.id) };
  }

  /** Spec 4.2: the model and every endpoint serving it, with measured figures. */
  listing(modelId: string): ModelWithEndpoints {
    const model = this.deps.catalog.model(modelId);
    return modelRecord(
      model,
      this.deps.catalog.endpointsOf(modelId).map((e) => this.view(e)),
    );
  }

  /** Spec 4.3: every endpoint whose provider retains no prompts. */
  zdrListing(): ZdrEndpoint[] {
    return this.deps.catalog
      .endpoints()
      .filter((e) => e.provider.data_policy.zdr === true)
      .map((e) => zdrRecord(this.view(e)));
  }
}

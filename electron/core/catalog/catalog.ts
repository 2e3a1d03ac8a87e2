import { decisionHost, endpointCapabilities } from '../providers/registry';
import type { ModelSummary } from '../../../shared/schemas/inspector';
import { GatewayError } from '../errors';
import { BUNDLED_PROVIDERS } from './bundled-providers';
import { BUNDLED_DECISION_ENDPOINTS, BUNDLED_DECISION_MODELS } from './bundled-decision-models';
import type { CatalogContribution, CatalogEndpoint, CatalogModel, CatalogProvider, CatalogSource, EndpointSources, Prices, SourcedField } from './types';

const toPrice = (value: string | undefined): number | null => (value === undefined ? null : Number(value));

type EndpointEntry = NonNullable<CatalogContribution['endpoints']>[number];

const SOURCE_LABEL: Record<CatalogSource, string> = { bundled: 'bundled', sandbox: 'simulated provider', discovered: 'provider listing', file: 'catalog file' };

/**
 * An endpoint entry over what earlier sources said of the same endpoint: each value it gives wins,
 * with `label` (or the entry's own per-value source) as its origin; what it leaves unknown stays.
 */
function layered(earlier: CatalogEndpoint | undefined, entry: EndpointEntry, label: string): EndpointEntry & { sources: EndpointSources } {
  const own = (field: SourcedField) => entry.sources?.[field] ?? label;
  const pricingGiven = Object.keys(entry.pricing).length > 0;
  const sources: EndpointSources = {
    pricing: pricingGiven ? own('pricing') : (earlier?.sources.pricing ?? null),
    context_length: entry.context_length !== null ? own('context_length') : (earlier?.sources.context_length ?? null),
    max_completion_tokens: entry.max_completion_tokens !== null ? own('max_completion_tokens') : (earlier?.sources.max_completion_tokens ?? null),
    modalities: entry.sources?.modalities ?? earlier?.sources.modalities ?? null,
  };
  if (!earlier) return { ...entry, sources };
  return {
    ...entry,
    pricing: pricingGiven ? entry.pricing : earlier.pricing,
    context_length: entry.context_length ?? earlier.contextLength,
    max_completion_tokens: entry.max_completion_tokens ?? earlier.maxCompletionTokens,
    max_prompt_tokens: entry.max_prompt_tokens ?? earlier.maxPromptTokens,
    quantization: entry.quantization ?? earlier.quantization,
    supported_parameters: entry.supported_parameters.length > 0 ? entry.supported_parameters : earlier.supportedParameters,
    sources,
  };
}

/** Where an endpoint is reached: `provider`, or `provider/tag` when the tag differs. */
export const endpointSlug = (endpoint: Pick<CatalogEndpoint, 'provider' | 'tag'>): string =>
  endpoint.tag === endpoint.provider.slug ? endpoint.provider.slug : `${endpoint.provider.slug}/${endpoint.tag}`;

/**
 * Providers, models and endpoints the gateway knows, merged from several sources (bundled
 * connection templates, the sandbox fleet, the user's catalog file, discovery). Each source is
 * replaced as a whole; lookups read prebuilt indexes.
 */
export class Catalog {
  private readonly sources = new Map<CatalogSource, CatalogContribution>();
  private providersBySlug = new Map<string, CatalogProvider>();
  private modelsById = new Map<string, CatalogModel>();
  private endpointsByModel = new Map<string, CatalogEndpoint[]>();
  private allEndpoints: CatalogEndpoint[] = [];

  constructor() {
    this.setSource('bundled', {
      providers: BUNDLED_PROVIDERS.map((p) => ({
        slug: p.slug,
        name: p.name,
        wire_format: p.wireFormat,
        base_url: p.baseUrl,
        local: p.local,
        // Local servers keep nothing beyond this machine; cloud policies are not known until the user says.
        data_policy: p.local ? { zdr: true, collects_data: false } : { zdr: null, collects_data: null },
        source: 'bundled',
        simulated: false,
      })),
      models: BUNDLED_DECISION_MODELS,
      endpoints: BUNDLED_DECISION_ENDPOINTS,
    });
  }

  setSource(source: CatalogSource, contribution: CatalogContribution | undefined): void {
    if (contribution) this.sources.set(source, contribution);
    else this.sources.delete(source);
    this.rebuild();
  }

  source(source: CatalogSource): CatalogContribution | undefined {
    return this.sources.get(source);
  }

  private rebuild(): void {
    const providers = new Map<string, CatalogProvider>();
    const models = new Map<string, CatalogModel>();
    // Later sources override earlier ones: what the user wrote wins over what was discovered.
    const order: CatalogSource[] = ['bundled', 'sandbox', 'discovered', 'file'];
    for (const name of order) {
      const contribution = this.sources.get(name);
      for (const p of contribution?.providers ?? []) providers.set(p.slug, p);
      for (const m of contribution?.models ?? []) models.set(m.id, m);
    }
    const endpoints = new Map<string, CatalogEndpoint>();
    for (const name of order) {
      for (const entry of this.sources.get(name)?.endpoints ?? []) {
        const provider = providers.get(entry.provider);
        const model = models.get(entry.model_id);
        if (!provider || !model) continue;
        const tag = entry.tag ?? provider.slug;
        const id = `${provider.slug}:${tag}:${model.id}`;
        // A later source wins value by value: what it leaves unknown keeps the earlier value and its source.
        const e = layered(endpoints.get(id), entry, SOURCE_LABEL[name]);
        const prices: Prices = {
          prompt: toPrice(e.pricing.prompt),
          completion: toPrice(e.pricing.completion),
          request: toPrice(e.pricing.request),
          image: toPrice(e.pricing.image),
          cacheRead: toPrice(e.pricing.input_cache_read),
          cacheWrite: toPrice(e.pricing.input_cache_write),
        };
        const wire = e.wire_format ?? endpoints.get(id)?.wire ?? provider.wire_format;
        endpoints.set(id, {
          id,
          model,
          provider,
          tag,
          upstreamModel: e.upstream_model,
          wire,
          host: decisionHost(wire, provider, e.upstream_model),
          contextLength: e.context_length,
          maxCompletionTokens: e.max_completion_tokens,
          maxPromptTokens: e.max_prompt_tokens,
          pricing: e.pricing,
          prices,
          quantization: e.quantization,
          supportedParameters: e.supported_parameters,
          capabilities: endpointCapabilities(wire, provider.slug, e.upstream_model, e.supported_parameters, name === 'file' || name === 'sandbox'),
          supportsImplicitCaching: e.supports_implicit_caching,
          sources: e.sources,
          source: name,
        });
      }
    }
    const byModel = new Map<string, CatalogEndpoint[]>();
    for (const endpoint of endpoints.values()) {
      const list = byModel.get(endpoint.model.id) ?? [];
      list.push(endpoint);
      byModel.set(endpoint.model.id, list);
    }
    this.providersBySlug = providers;
    this.modelsById = models;
    this.endpointsByModel = byModel;
    this.allEndpoints = [...endpoints.values()];
  }

  listProviders(): CatalogProvider[] {
    return [...this.providersBySlug.values()];
  }

  hasProvider(slug: string): boolean {
    return this.providersBySlug.has(slug);
  }

  provider(slug: string): CatalogProvider {
    const found = this.providersBySlug.get(slug);
    if (!found) throw new GatewayError('not_found', `Unknown provider "${slug}"`);
    return found;
  }

  hasModel(id: string): boolean {
    return this.modelsById.has(id);
  }

  model(modelId: string): CatalogModel {
    const found = this.modelsById.get(modelId);
    if (!found) {
      // Models this machine can answer without a key (simulated, local) first, then the rest.
      const free = (id: string) => (this.endpointsOf(id).some((e) => e.provider.local || e.provider.simulated) ? 0 : 1);
      const ids = [...this.modelsById.keys()].sort((a, b) => free(a) - free(b) || a.localeCompare(b));
      const known =
        ids.length === 0
          ? 'the catalog has no models yet'
          : `known models include ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}; GET /api/v1/models lists them`;
      throw new GatewayError('not_found', `Model "${modelId}" was not found (${known})`);
    }
    return found;
  }

  endpointsOf(modelId: string): readonly CatalogEndpoint[] {
    return this.endpointsByModel.get(modelId) ?? [];
  }

  endpoints(): readonly CatalogEndpoint[] {
    return this.allEndpoints;
  }

  listModels(): Pick<ModelSummary, 'id' | 'name' | 'endpoint_count' | 'locates_objects'>[] {
    return [...this.modelsById.values()].map((m) => ({
      id: m.id,
      name: m.name,
      endpoint_count: this.endpointsOf(m.id).length,
      locates_objects: m.locates_objects,
    }));
  }
}

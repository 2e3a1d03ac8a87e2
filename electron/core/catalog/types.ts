import type { EndpointPricingConfig, ModelConfig, ProviderConfig } from '../../../shared/schemas/catalog';
import type { Capabilities } from '../providers/capabilities';
import type { DecisionHost } from '../providers/decision-host';
import type { WireFormat } from '../../../shared/schemas/inspector';
import type { Quantization } from '../../../shared/schemas/provider-preferences';

export type CatalogSource = 'bundled' | 'sandbox' | 'file' | 'discovered';

export interface CatalogProvider extends ProviderConfig {
  source: CatalogSource;
  /** A built-in simulated provider: always labelled, never presented as a real model. */
  simulated: boolean;
}

export interface CatalogModel extends ModelConfig {
  source: CatalogSource;
}

/** Prices as numbers, USD per token / request / image; null where no source gave one. */
export interface Prices {
  prompt: number | null;
  completion: number | null;
  request: number | null;
  image: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
}

export interface CatalogEndpoint {
  /** Stable identity: provider, tag and model. */
  id: string;
  model: CatalogModel;
  provider: CatalogProvider;
  tag: string;
  upstreamModel: string;
  /** The API it is reached through: the endpoint's own when the catalog names one, else its provider's. */
  wire: WireFormat;
  /** For a host that answers Decisions itself: what it takes and how (its provider folder's row); null for chat endpoints. */
  host: DecisionHost | null;
  contextLength: number | null;
  maxCompletionTokens: number | null;
  maxPromptTokens: number | null;
  pricing: EndpointPricingConfig;
  prices: Prices;
  quantization: Quantization | null;
  supportedParameters: readonly string[];
  /** What requests to it may carry (its provider folder's table and the catalog file). */
  capabilities: Capabilities;
  sources: EndpointSources;
  supportsImplicitCaching: boolean;
  source: CatalogSource;
}

export interface CatalogContribution {
  providers?: readonly CatalogProvider[];
  models?: readonly CatalogModel[];
  endpoints?: readonly {
    model_id: string;
    provider: string;
    tag?: string | undefined;
    upstream_model: string;
    wire_format?: WireFormat | undefined;
    context_length: number | null;
    max_completion_tokens: number | null;
    max_prompt_tokens: number | null;
    pricing: EndpointPricingConfig;
    quantization: Quantization | null;
    supported_parameters: readonly string[];
    supports_implicit_caching: boolean;
    /** Where values came from when not from this contribution's own source (e.g. models.dev under a listing). */
    sources?: Partial<EndpointSources>;
  }[];
}

/** Values of an endpoint whose origin is shown beside them. */
export const SOURCED_FIELDS = ['pricing', 'context_length', 'max_completion_tokens', 'modalities'] as const;
export type SourcedField = (typeof SOURCED_FIELDS)[number];
/** Where each value came from: 'catalog file', 'provider listing', models.dev with its version, …; null: unknown. */
export type EndpointSources = Record<SourcedField, string | null>;

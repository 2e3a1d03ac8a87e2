import type { KeyLookup } from '../keys/provider-keys';
import { supportedParameters } from '../providers/capabilities';
import { endpointCapabilities, WIRES } from '../providers/registry';
import { MODELS_DEV_SOURCE, modelsDevEntry, modelsDevPricing, type ModelsDevEntry } from './models-dev';
import type { ListedModel } from '../providers/listing';
import type { CatalogContribution, CatalogModel, CatalogProvider } from './types';
import type { Clock } from '../clock';
import type { UpstreamHttp } from '../providers/http';

/** One endpoint as a catalog contribution lists it. */
type CatalogEndpointEntry = NonNullable<CatalogContribution['endpoints']>[number];

/** What one provider's own model listing said, or why it could not be read. */
export interface DiscoveryResult {
  provider: string;
  models: number;
  error: string | null;
  at: number;
}

/**
 * Each wire format's model listing, read by its provider folder (pagination included). Another
 * gateway's alpha route and OpenAI's Decisions have none that says which models answer Decisions.
 */
/** Catalog model id for a provider's model name: names with an author keep it, others get the provider's. */
export function discoveredModelId(provider: CatalogProvider, upstreamId: string, author: string | undefined): string {
  const cleaned = upstreamId
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9/_.:-]/g, '-');
  return cleaned.includes('/') ? cleaned : `${author ?? provider.slug}/${cleaned}`;
}

/**
 * Discovery: each enabled provider (a key is set, or a local server answers) is asked for its
 * models. What the listing says is recorded, and what it leaves out (prices, limits, modalities)
 * is taken from models.dev where it knows the model, each value labelled with its source; the rest
 * stays unknown. Servers on this machine cost nothing.
 */
export async function discover(
  providers: readonly CatalogProvider[],
  deps: {
    http: UpstreamHttp;
    clock: Clock;
    keyFor: (provider: CatalogProvider) => Promise<KeyLookup>;
    hints: (slug: string) => { author?: string; logprobs: boolean; listsModels?: boolean };
    /** The catalog's model for a provider's upstream name, when another source already lists it (a bundled decision model). */
    knownModel?: (provider: string, upstreamModel: string) => string | undefined;
  },
): Promise<{ contribution: CatalogContribution; results: DiscoveryResult[] }> {
  const models = new Map<string, CatalogModel>();
  const endpoints: CatalogEndpointEntry[] = [];
  const results = await Promise.all(
    providers
      .filter((p) => !p.simulated && WIRES[p.wire_format].listModels !== undefined && deps.hints(p.slug).listsModels !== false)
      .map(async (provider): Promise<DiscoveryResult | null> => {
        const found = provider.local ? null : await deps.keyFor(provider);
        if (!provider.local && !found) return null;
        const at = deps.clock.now();
        // A key bound to another address is not sent: the listing is not asked, and the user is told why.
        if (found && 'refused' in found) return { provider: provider.slug, models: 0, error: found.refused, at };
        const apiKey = found?.key;
        const signal = AbortSignal.timeout(provider.local ? 1_500 : 10_000);
        try {
          const wire = WIRES[provider.wire_format];
          // A local server that is not running (the usual case) refuses the connection: known without a listing call.
          if (provider.local) await deps.http.listening(provider.base_url, signal);
          const listed = await wire.listModels!(provider.base_url, apiKey, deps.http, signal);
          // Models of a family that answers Decisions itself are decision models.
          const outputs = wire.host ? 'decisions' : 'text';
          const hints = deps.hints(provider.slug);
          for (const m of listed) {
            // A name the catalog already knows (a bundled decision model's upstream name) adds to that model.
            const listedAs = deps.knownModel?.(provider.slug, m.id);
            const id = listedAs ?? discoveredModelId(provider, m.id, hints.author);
            // What the listing does not say (prices, limits, modalities) from models.dev, labelled so.
            const known = provider.local ? null : modelsDevEntry(provider.slug, m.id);
            if (listedAs === undefined && !models.has(id)) models.set(id, discoveredModel(id, m, known, outputs));
            endpoints.push(discoveredEndpoint(provider, id, m, known));
          }
          return { provider: provider.slug, models: listed.length, error: null, at };
        } catch (error) {
          return { provider: provider.slug, models: 0, error: (error as Error).message, at };
        }
      }),
  );
  return { contribution: { models: [...models.values()], endpoints }, results: results.filter((r): r is DiscoveryResult => r !== null) };
}

/** A model first met in a provider's listing: its name and modalities as the listing and models.dev say, nothing guessed. */
function discoveredModel(id: string, m: ListedModel, known: ModelsDevEntry | null, outputs: string): CatalogModel {
  const inputs = known?.modalities?.input ? [...known.modalities.input] : ['text'];
  return {
    id,
    name: m.name ?? m.id,
    // 0: the listing gave no creation time.
    created: m.created ?? 0,
    description: '',
    architecture: {
      input_modalities: inputs,
      output_modalities: [outputs],
      modality: `${inputs.join('+')}->${outputs}`,
      instruct_type: null,
      tokenizer: null,
    },
    distillable: null,
    // Whether it can locate objects is not in any listing; the user says so in the catalog.
    locates_objects: false,
    box_format: null,
    source: 'discovered',
  };
}

/** The endpoint a listing shows: limits from the listing, else models.dev, else unknown; each value with its source. */
function discoveredEndpoint(provider: CatalogProvider, id: string, m: ListedModel, known: ModelsDevEntry | null): CatalogEndpointEntry {
  const pricing = provider.local ? { prompt: '0', completion: '0' } : known ? modelsDevPricing(known) : {};
  const fromListing = (value: number | undefined, fallback: number | undefined) =>
    value !== undefined
      ? { value, source: 'provider listing' }
      : fallback !== undefined
        ? { value: fallback, source: MODELS_DEV_SOURCE }
        : { value: null, source: null };
  const context = fromListing(m.contextLength, known?.limit?.context);
  const output = fromListing(m.maxOutput, known?.limit?.output);
  return {
    model_id: id,
    provider: provider.slug,
    upstream_model: m.id,
    context_length: context.value,
    max_completion_tokens: output.value,
    max_prompt_tokens: null,
    pricing,
    quantization: null,
    supported_parameters: supportedParameters(endpointCapabilities(provider.wire_format, provider.slug, m.id, [], false), provider.wire_format),
    supports_implicit_caching: false,
    sources: {
      pricing: provider.local ? 'local server (no charge)' : Object.keys(pricing).length > 0 ? MODELS_DEV_SOURCE : null,
      context_length: context.source,
      max_completion_tokens: output.source,
      modalities: known?.modalities ? MODELS_DEV_SOURCE : null,
    },
  };
}

import { listAnthropicModels } from '../providers/anthropic/listing';
import { listGeminiModels } from '../providers/gemini/listing';
import { listOpenAiModels } from '../providers/openai/listing';
import type { ModelLister } from '../providers/listing';
import type { KeyLookup } from '../keys/provider-keys';
import type { CatalogContribution, CatalogModel, CatalogProvider } from './types';
import type { Clock } from '../clock';
import type { UpstreamHttp } from '../providers/http';

/** What one provider's own model listing said, or why it could not be read. */
export interface DiscoveryResult {
  provider: string;
  models: number;
  error: string | null;
  at: number;
}

/** Each wire format's model listing, read by its provider folder (pagination included). */
const LISTERS: Record<Exclude<CatalogProvider['wire_format'], 'decisions'>, ModelLister> = {
  openai: listOpenAiModels,
  anthropic: listAnthropicModels,
  gemini: listGeminiModels,
};

/** Catalog model id for a provider's model name: names with an author keep it, others get the provider's. */
export function discoveredModelId(provider: CatalogProvider, upstreamId: string, author: string | undefined): string {
  const cleaned = upstreamId.trim().toLowerCase().replace(/[^a-z0-9/_.:-]/g, '-');
  return cleaned.includes('/') ? cleaned : `${author ?? provider.slug}/${cleaned}`;
}

/**
 * Discovery: each enabled provider (a key is set, or a local server answers) is asked for its
 * models. Only what the listing says is recorded: prices stay unknown for cloud providers, and
 * are zero for servers on this machine.
 */
export async function discover(
  providers: readonly CatalogProvider[],
  deps: { http: UpstreamHttp; clock: Clock; keyFor: (provider: CatalogProvider) => Promise<KeyLookup>; hints: (slug: string) => { author?: string; logprobs: boolean } },
): Promise<{ contribution: CatalogContribution; results: DiscoveryResult[] }> {
  const models = new Map<string, CatalogModel>();
  const endpoints: NonNullable<CatalogContribution['endpoints']>[number][] = [];
  const results = await Promise.all(
    providers
      .filter((p) => !p.simulated && p.wire_format !== 'decisions')
      .map(async (provider): Promise<DiscoveryResult | null> => {
        const found = provider.local ? null : await deps.keyFor(provider);
        if (!provider.local && !found) return null;
        const at = deps.clock.now();
        // A key bound to another address is not sent: the listing is not asked, and the user is told why.
        if (found && 'refused' in found) return { provider: provider.slug, models: 0, error: found.refused, at };
        const apiKey = found?.key;
        const signal = AbortSignal.timeout(provider.local ? 1_500 : 10_000);
        try {
          const listed = await LISTERS[provider.wire_format as keyof typeof LISTERS](provider.base_url, apiKey, deps.http, signal);
          const hints = deps.hints(provider.slug);
          for (const m of listed) {
            const id = discoveredModelId(provider, m.id, hints.author);
            if (!models.has(id)) {
              models.set(id, {
                id,
                name: m.name ?? m.id,
                // 0: the listing gave no creation time.
                created: m.created ?? 0,
                description: '',
                architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
                distillable: null,
                // Whether it can locate objects is not in any listing; the user says so in the catalog.
                locates_objects: false,
                box_format: null,
                source: 'discovered',
              });
            }
            endpoints.push({
              model_id: id,
              provider: provider.slug,
              upstream_model: m.id,
              context_length: m.contextLength ?? null,
              max_completion_tokens: m.maxOutput ?? null,
              max_prompt_tokens: null,
              pricing: provider.local ? { prompt: '0', completion: '0' } : {},
              quantization: null,
              supported_parameters: ['max_tokens', 'temperature', ...(hints.logprobs ? ['logprobs', 'top_logprobs'] : [])],
              supports_implicit_caching: false,
            });
          }
          return { provider: provider.slug, models: listed.length, error: null, at };
        } catch (error) {
          return { provider: provider.slug, models: 0, error: (error as Error).message, at };
        }
      }),
  );
  return { contribution: { models: [...models.values()], endpoints }, results: results.filter((r): r is DiscoveryResult => r !== null) };
}

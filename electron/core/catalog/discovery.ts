import { anthropicHeaders } from '../providers/anthropic/request';
import { geminiHeaders } from '../providers/gemini/request';
import { openaiHeaders } from '../providers/openai/request';
import type { KeyLookup } from '../keys/provider-keys';
import { z } from 'zod';
import type { CatalogContribution, CatalogModel, CatalogProvider } from './types';
import type { Clock } from '../clock';
import { readText, type UpstreamHttp } from '../providers/http';
import { UpstreamError } from '../providers/upstream-error';
import type { CancelSignal } from '../cancel';

/** What one provider's own model listing said, or why it could not be read. */
export interface DiscoveryResult {
  provider: string;
  models: number;
  error: string | null;
  at: number;
}

interface Listed {
  id: string;
  name?: string | undefined;
  created?: number | undefined;
  contextLength?: number | undefined;
  maxOutput?: number | undefined;
}

const OpenAiList = z.object({
  data: z.array(z.looseObject({ id: z.string(), created: z.number().int().optional(), context_length: z.number().int().positive().optional(), max_model_len: z.number().int().positive().optional() })),
});
const AnthropicList = z.object({ data: z.array(z.looseObject({ id: z.string(), display_name: z.string().optional(), created_at: z.string().optional() })) });
const GeminiList = z.object({
  models: z.array(
    z.looseObject({
      name: z.string(),
      displayName: z.string().optional(),
      inputTokenLimit: z.number().int().positive().optional(),
      outputTokenLimit: z.number().int().positive().optional(),
      supportedGenerationMethods: z.array(z.string()).optional(),
    }),
  ),
});

/** Reads a provider's model listing in its own wire format. */
async function list(provider: CatalogProvider, apiKey: string | undefined, http: UpstreamHttp, signal: CancelSignal): Promise<Listed[]> {
  const headers = provider.wire_format === 'anthropic' ? anthropicHeaders(apiKey) : provider.wire_format === 'gemini' ? geminiHeaders(apiKey) : openaiHeaders(apiKey);
  const response = await http.get(`${provider.base_url}/models`, { headers, signal });
  const text = await readText(response.body, signal);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UpstreamError('invalid_response', 'the model listing is not JSON');
  }
  const parse = <T>(schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new UpstreamError('invalid_response', `unexpected model listing (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
    return parsed.data;
  };
  switch (provider.wire_format) {
    case 'anthropic':
      return parse(AnthropicList).data.map((m) => ({ id: m.id, name: m.display_name, created: m.created_at ? Math.floor(Date.parse(m.created_at) / 1000) : undefined }));
    case 'gemini':
      return parse(GeminiList)
        .models.filter((m) => (m.supportedGenerationMethods ?? ['generateContent']).includes('generateContent'))
        .map((m) => ({ id: m.name.replace(/^models\//, ''), name: m.displayName, contextLength: m.inputTokenLimit, maxOutput: m.outputTokenLimit }));
    default:
      return parse(OpenAiList).data.map((m) => ({ id: m.id, created: m.created, contextLength: m.context_length ?? m.max_model_len }));
  }
}

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
          const listed = await list(provider, apiKey, deps.http, signal);
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

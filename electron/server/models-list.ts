import type { ModelWithEndpoints } from '../../shared/schemas/model';
import type { ModelsList, ModelsListItem } from '../../shared/schemas/models-list';

const known = (price: string) => price !== '-1' && Number.isFinite(Number(price));

/**
 * A model as an entry of the models list. Its pricing and top provider are those of its cheapest
 * endpoint with a known prompt price (the first endpoint when no price is known); its context length
 * is the longest any endpoint offers, and its parameters are those any endpoint accepts.
 */
export function modelsListItem(model: ModelWithEndpoints): ModelsListItem {
  const priced = model.endpoints.filter((e) => known(e.pricing.prompt)).sort((a, b) => Number(a.pricing.prompt) - Number(b.pricing.prompt));
  const top = priced[0] ?? model.endpoints[0];
  const contexts = model.endpoints.map((e) => e.context_length).filter((n) => n > 0);
  const { tokenizer, instruct_type, ...architecture } = model.architecture;
  return {
    id: model.id,
    canonical_slug: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    context_length: contexts.length > 0 ? Math.max(...contexts) : null,
    architecture: { ...architecture, instruct_type, ...(tokenizer ? { tokenizer } : {}) },
    pricing: top ? top.pricing : { prompt: '-1', completion: '-1' },
    top_provider: {
      context_length: top && top.context_length > 0 ? top.context_length : null,
      max_completion_tokens: top?.max_completion_tokens ?? null,
      is_moderated: false,
    },
    per_request_limits: null,
    supported_parameters: [...new Set(model.endpoints.flatMap((e) => e.supported_parameters))].sort(),
    supported_voices: null,
    default_parameters: null,
    links: { details: `/api/v1/models/${model.id}/endpoints` },
    endpoint_count: model.endpoints.length,
  };
}

/**
 * `output_modalities` as OpenRouter documents it for its models list: a comma-separated list of
 * output modalities (a model is listed when it has any of them) or `all`; absent, `text`, so that
 * decision models (output `decisions`) are listed only when asked for. Null for `all`.
 */
export function outputModalitiesFilter(query: string | undefined): ReadonlySet<string> | null {
  const wanted = (query ?? 'text')
    .split(',')
    .map((m) => m.trim().toLowerCase())
    .filter((m) => m.length > 0);
  if (wanted.length === 0 || wanted.includes('all')) return null;
  return new Set(wanted);
}

/** Every model with at least one endpoint and an output modality asked for, by id. */
export function modelsList(models: ModelWithEndpoints[], outputs: ReadonlySet<string> | null = outputModalitiesFilter(undefined)): ModelsList {
  const data = models
    .filter((m) => m.endpoints.length > 0 && (outputs === null || m.architecture.output_modalities.some((o) => outputs.has(o.toLowerCase()))))
    .map(modelsListItem)
    .sort((a, b) => a.id.localeCompare(b.id));
  return { data, links: { next: null }, total_count: data.length };
}

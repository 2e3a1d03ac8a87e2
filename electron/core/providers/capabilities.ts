import type { WireFormat } from '../../../shared/schemas/inspector';

/**
 * What one endpoint accepts, so each request is built for the model it goes to. Every provider
 * folder keeps a table of these by model family, naming the document each row comes from; an
 * endpoint's capabilities are that row, then what the catalog file says, then what the endpoint
 * itself refused at run time (learned, remembered, shown in Endpoints).
 */
export interface Capabilities {
  /** The output-limit parameter (OpenAI-compatible APIs only; the others have one name). */
  tokenLimit: 'max_tokens' | 'max_completion_tokens';
  /** Whether a temperature may be sent (reasoning models and some new models refuse one). */
  temperature: boolean;
  /** Whether `stream_options: {include_usage: true}` may be sent. */
  streamUsage: boolean;
  /** Most alternatives per position the endpoint returns (top_logprobs); 0: no log-probabilities. */
  topLogprobs: number;
  /** How the log-probability request is spelled: OpenAI's `logprobs: true` + `top_logprobs`, or an integer `logprobs` (Together). */
  logprobsParam: 'openai' | 'integer';
  /** Structured output for stated probabilities, or none (the prompt alone asks for JSON). */
  structured: 'json_schema' | 'json_object' | 'anthropic-output-format' | 'gemini-schema' | 'none';
  /**
   * Reasoning: none (not a reasoning model); 'effort' (reasoning_effort, lowest value `minimalEffort`);
   * 'budget' (a thinking budget that can go down to `minThinkingBudget`, 0 = off); 'level' (Gemini 3's
   * thinkingLevel, lowest `minimalEffort`). A model that always thinks needs room for it in the output budget.
   */
  reasoning: 'none' | 'effort' | 'budget' | 'level';
  minimalEffort?: string;
  minThinkingBudget?: number;
  /** Whether a system prompt is accepted (o1-mini and o1-preview refuse one: it goes first in the user's turn). */
  systemPrompt: boolean;
  /** Output tokens to leave for thinking the model cannot switch off. */
  thinkingRoom: number;
  /** The document the row comes from. */
  source: string;
}

/** One row of a provider folder's table: which provider and model ids it covers, and what differs from the defaults. */
export interface CapabilityRow {
  providers: readonly string[] | '*';
  model: RegExp;
  caps: Partial<Capabilities>;
  source: string;
}

export const GENERIC: Capabilities = {
  tokenLimit: 'max_tokens',
  temperature: true,
  streamUsage: true,
  topLogprobs: 0,
  logprobsParam: 'openai',
  structured: 'none',
  reasoning: 'none',
  systemPrompt: true,
  thinkingRoom: 0,
  source: 'defaults for an unknown endpoint',
};

/** The first row of `table` (most specific first) matching provider and model, over `base`. */
export function lookUp(table: readonly CapabilityRow[], provider: string, model: string, base: Capabilities): Capabilities {
  const id = model.toLowerCase();
  // Rows are read most specific first; a later row only fills what no earlier matching row said.
  const merged: Partial<Capabilities> = {};
  const sources: string[] = [];
  for (const row of table) {
    if (row.providers !== '*' && !row.providers.includes(provider)) continue;
    if (!row.model.test(id)) continue;
    for (const [k, v] of Object.entries(row.caps)) if (!(k in merged)) (merged as Record<string, unknown>)[k] = v;
    sources.push(row.source);
  }
  return { ...base, ...merged, source: sources.length > 0 ? [...new Set(sources)].join('; ') : base.source };
}

/** Parameters a request may name, as endpoint listings spell them (spec 2.9 `supported_parameters`). */
export function supportedParameters(caps: Capabilities, wire: WireFormat): string[] {
  if (wire === 'decisions') return [];
  const names = [caps.tokenLimit === 'max_completion_tokens' && wire === 'openai' ? 'max_completion_tokens' : 'max_tokens'];
  if (caps.temperature) names.push('temperature');
  if (caps.topLogprobs > 0) names.push('logprobs', 'top_logprobs');
  if (caps.structured !== 'none') names.push(caps.structured === 'json_object' ? 'response_format' : 'structured_outputs', 'response_format');
  if (caps.reasoning !== 'none') names.push('reasoning');
  return [...new Set(names)];
}

/** A capability the endpoint refused at run time, as `UpstreamError.details.parameter` names it. */
export function withoutLearned(caps: Capabilities, refused: ReadonlySet<string>): Capabilities {
  if (refused.size === 0) return caps;
  const next = { ...caps };
  if (refused.has('temperature')) next.temperature = false;
  if (refused.has('stream_options')) next.streamUsage = false;
  if (refused.has('logprobs') || refused.has('top_logprobs')) next.topLogprobs = 0;
  if (refused.has('max_tokens')) next.tokenLimit = 'max_completion_tokens';
  if (refused.has('max_completion_tokens')) next.tokenLimit = 'max_tokens';
  // A reply that ran out of budget before any answer: the model thinks more than its row says.
  if (refused.has('output_budget')) next.thinkingRoom = Math.max(next.thinkingRoom * 4, 2048);
  if (refused.has('messages[0].role') || refused.has('system')) next.systemPrompt = false;
  if (refused.has('response_format') || refused.has('output_format') || refused.has('response_schema')) next.structured = 'none';
  if (refused.has('reasoning_effort') || refused.has('thinking') || refused.has('thinking_config')) {
    // It thinks anyway, or cannot be told how much: leave room instead of asking for less.
    next.reasoning = 'none';
    next.thinkingRoom = Math.max(next.thinkingRoom, 1024);
  }
  return next;
}

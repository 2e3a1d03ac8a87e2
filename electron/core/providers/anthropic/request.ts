import { joinedText, verbatim } from '../verbatim-json';
import type { Capabilities } from '../capabilities';
import type { ChatRequest, ContentPart, Target } from '../types';

/** The Messages API version every request names (https://docs.anthropic.com/en/api/versioning). */
export const API_VERSION = '2023-06-01';
/** The beta that enables `output_format` (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs). */
export const STRUCTURED_OUTPUTS_BETA = 'structured-outputs-2025-11-13';

/** Headers of every Anthropic call, model listings included. */
export function anthropicHeaders(apiKey: string | undefined, betas: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': API_VERSION };
  if (apiKey) headers['x-api-key'] = apiKey;
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return headers;
}

const block = (p: ContentPart) =>
  p.type === 'text'
    ? { type: 'text', text: joinedText([p.text]), ...(p.cache ? { cache_control: { type: 'ephemeral' } } : {}) }
    : { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: verbatim(p.base64) } };

/**
 * A Messages API request body for one chat call, streamed, built for the model it goes to: no
 * temperature where the model refuses one; stated probabilities through structured output where
 * the model has it. Thinking stays off (it is off unless asked for).
 */
export function anthropicBody(model: string, request: ChatRequest, caps: Capabilities): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.options,
    model,
    max_tokens: request.maxTokens + caps.thinkingRoom,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content.map(block) })),
    stream: true,
  };
  if (request.system) body['system'] = request.system;
  if (request.temperature !== undefined && caps.temperature) body['temperature'] = request.temperature;
  if (request.jsonSchema && caps.structured === 'anthropic-output-format') body['output_format'] = { type: 'json_schema', schema: request.jsonSchema.schema };
  return body;
}

/** Where and what to send for one chat call. */
export function anthropicCall(target: Target, request: ChatRequest): { url: string; body: Record<string, unknown>; headers: Record<string, string> } {
  const body = anthropicBody(target.model, request, target.capabilities);
  return { url: `${target.baseUrl}/messages`, body, headers: anthropicHeaders(target.apiKey, body['output_format'] ? [STRUCTURED_OUTPUTS_BETA] : []) };
}

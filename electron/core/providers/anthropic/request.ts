import type { ChatRequest, ContentPart } from '../types';

/** The Messages API version every request names (https://docs.anthropic.com/en/api/versioning). */
export const API_VERSION = '2023-06-01';

/** Headers of every Anthropic call, model listings included. */
export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { 'anthropic-version': API_VERSION, 'x-api-key': apiKey } : { 'anthropic-version': API_VERSION };
}

const block = (p: ContentPart) =>
  p.type === 'text'
    ? { type: 'text', text: p.text, ...(p.cache ? { cache_control: { type: 'ephemeral' } } : {}) }
    : { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.base64 } };

/** A Messages API request body for one chat call, streamed. */
export function anthropicBody(model: string, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.options,
    model,
    max_tokens: request.maxTokens,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content.map(block) })),
    stream: true,
  };
  if (request.system) body['system'] = request.system;
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  return body;
}

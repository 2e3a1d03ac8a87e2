import type { ChatRequest, ContentPart } from '../types';

/** Headers of every OpenAI-compatible call, model listings included. */
export function openaiHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

const part = (p: ContentPart) =>
  p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.base64}` } };

export function openaiBody(model: string, request: ChatRequest): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const m of request.messages) {
    const onlyText = m.content.every((c) => c.type === 'text');
    messages.push({ role: m.role, content: onlyText ? m.content.map((c) => (c as { text: string }).text).join('') : m.content.map(part) });
  }
  const body: Record<string, unknown> = {
    ...request.options,
    model,
    messages,
    max_tokens: request.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.temperature !== undefined) body['temperature'] = request.temperature;
  if (request.topLogprobs) {
    body['logprobs'] = true;
    body['top_logprobs'] = request.topLogprobs;
  }
  if (request.jsonSchema) {
    body['response_format'] = { type: 'json_schema', json_schema: { name: request.jsonSchema.name, strict: true, schema: request.jsonSchema.schema } };
  }
  return body;
}

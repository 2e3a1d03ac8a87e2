import { joinedText, verbatim } from '../verbatim-json';
import type { Capabilities } from '../capabilities';
import type { ChatRequest, ContentPart, Target } from '../types';

/** Headers of every OpenAI-compatible call, model listings included. */
export function openaiHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

const part = (p: ContentPart) =>
  p.type === 'text'
    ? { type: 'text', text: joinedText([p.text]) }
    : { type: 'image_url', image_url: { url: verbatim('data:', p.mediaType, ';base64,', p.base64) } };

/**
 * A chat completions request built for the endpoint it goes to: only parameters it accepts
 * (capabilities), the output limit under the name it takes, room for thinking it cannot skip.
 */
export function openaiBody(model: string, request: ChatRequest, caps: Capabilities): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.system && caps.systemPrompt) messages.push({ role: 'system', content: request.system });
  request.messages.forEach((m, i) => {
    // A model that takes no system prompt reads it first in the user's turn.
    const content: ContentPart[] =
      request.system && !caps.systemPrompt && i === 0 ? [{ type: 'text', text: `${request.system}\n\n` }, ...m.content] : m.content;
    const onlyText = content.every((c) => c.type === 'text');
    messages.push({ role: m.role, content: onlyText ? joinedText(content.map((c) => (c as { text: string }).text)) : content.map(part) });
  });
  const body: Record<string, unknown> = { ...request.options, model, messages, stream: true };
  body[caps.tokenLimit] = request.maxTokens + caps.thinkingRoom;
  if (caps.streamUsage) body['stream_options'] = { include_usage: true };
  if (request.temperature !== undefined && caps.temperature) body['temperature'] = request.temperature;
  if (request.minimalReasoning && caps.reasoning === 'effort' && caps.minimalEffort) body['reasoning_effort'] = caps.minimalEffort;
  const top = Math.min(request.topLogprobs ?? 0, caps.topLogprobs);
  if (top > 0) {
    if (caps.logprobsParam === 'integer') body['logprobs'] = top;
    else {
      body['logprobs'] = true;
      body['top_logprobs'] = top;
    }
  }
  if (request.jsonSchema && caps.structured === 'json_schema') {
    body['response_format'] = { type: 'json_schema', json_schema: { name: request.jsonSchema.name, strict: true, schema: request.jsonSchema.schema } };
  } else if (request.jsonSchema && caps.structured === 'json_object') {
    body['response_format'] = { type: 'json_object' };
  }
  return body;
}

/** Where and what to send for one chat call. */
export function openaiCall(target: Target, request: ChatRequest): { url: string; body: Record<string, unknown>; headers: Record<string, string> } {
  return { url: `${target.baseUrl}/chat/completions`, body: openaiBody(target.model, request, target.capabilities), headers: openaiHeaders(target.apiKey) };
}

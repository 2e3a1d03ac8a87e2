import { joinedText, verbatim } from '../verbatim-json';
import type { Capabilities } from '../capabilities';
import type { ChatRequest, ContentPart, Target } from '../types';

/** Headers of every Gemini API call, model listings included. */
export function geminiHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { 'x-goog-api-key': apiKey } : {};
}

const part = (p: ContentPart) => (p.type === 'text' ? { text: joinedText([p.text]) } : { inlineData: { mimeType: p.mediaType, data: verbatim(p.base64) } });

/** A JSON schema as Gemini's `responseSchema` spells it (an OpenAPI subset: upper-case types, no additionalProperties). */
export function geminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties') continue;
    if (key === 'type' && typeof value === 'string') out[key] = value.toUpperCase();
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, Record<string, unknown>>).map(([k, v]) => [k, geminiSchema(v)]));
    } else if (key === 'items' && value && typeof value === 'object') out[key] = geminiSchema(value as Record<string, unknown>);
    else out[key] = value;
  }
  return out;
}

/**
 * A generateContent request body built for the model it goes to: log-probabilities only where
 * the model has them, the least thinking it allows for label questions, and an output budget
 * with room for the thinking it cannot skip (thinking counts against maxOutputTokens).
 */
export function geminiBody(request: ChatRequest, caps: Capabilities): Record<string, unknown> {
  const generationConfig: Record<string, unknown> = { maxOutputTokens: request.maxTokens + caps.thinkingRoom };
  if (request.temperature !== undefined && caps.temperature) generationConfig['temperature'] = request.temperature;
  const top = Math.min(request.topLogprobs ?? 0, caps.topLogprobs);
  if (top > 0) {
    generationConfig['responseLogprobs'] = true;
    generationConfig['logprobs'] = top;
  }
  if (request.jsonSchema && caps.structured === 'gemini-schema') {
    generationConfig['responseMimeType'] = 'application/json';
    generationConfig['responseSchema'] = geminiSchema(request.jsonSchema.schema);
  }
  if (request.minimalReasoning && caps.reasoning === 'budget') generationConfig['thinkingConfig'] = { thinkingBudget: caps.minThinkingBudget ?? 0 };
  if (request.minimalReasoning && caps.reasoning === 'level' && caps.minimalEffort) generationConfig['thinkingConfig'] = { thinkingLevel: caps.minimalEffort };
  const body: Record<string, unknown> = {
    ...request.options,
    contents: request.messages.map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: m.content.map(part) })),
    generationConfig,
  };
  if (request.system) body['systemInstruction'] = { parts: [{ text: request.system }] };
  return body;
}

/** Where and what to send for one chat call. */
export function geminiCall(target: Target, request: ChatRequest): { url: string; body: Record<string, unknown>; headers: Record<string, string> } {
  return {
    url: `${target.baseUrl}/models/${encodeURIComponent(target.model)}:streamGenerateContent?alt=sse`,
    body: geminiBody(request, target.capabilities),
    headers: geminiHeaders(target.apiKey),
  };
}

import type { ChatRequest, ContentPart } from '../types';

/** Headers of every Gemini API call, model listings included. */
export function geminiHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { 'x-goog-api-key': apiKey } : {};
}

const part = (p: ContentPart) => (p.type === 'text' ? { text: p.text } : { inlineData: { mimeType: p.mediaType, data: p.base64 } });

/** A generateContent request body for one chat call. */
export function geminiBody(request: ChatRequest): Record<string, unknown> {
  const generationConfig: Record<string, unknown> = { maxOutputTokens: request.maxTokens };
  if (request.temperature !== undefined) generationConfig['temperature'] = request.temperature;
  if (request.topLogprobs) {
    generationConfig['responseLogprobs'] = true;
    generationConfig['logprobs'] = request.topLogprobs;
  }
  if (request.jsonSchema) {
    generationConfig['responseMimeType'] = 'application/json';
    generationConfig['responseJsonSchema'] = request.jsonSchema.schema;
  }
  const body: Record<string, unknown> = {
    ...request.options,
    contents: request.messages.map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: m.content.map(part) })),
    generationConfig,
  };
  if (request.system) body['systemInstruction'] = { parts: [{ text: request.system }] };
  return body;
}

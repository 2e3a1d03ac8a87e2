import { DecisionsResponseSchema } from '../../../../shared/schemas/decisions-response';
import { isPlainDecisionsResponse } from '../../../../shared/schemas/fast-accept';
import { readText } from '../http';
import type { DecideResult, ProviderAdapter } from '../types';
import { UpstreamError } from '../upstream-error';

/** Decisions URLs by base URL, worked out once each. */
const urls = new Map<string, string>();

/**
 * A provider that serves Decisions itself: another gateway's `/api/alpha/decisions` (base URL
 * ending in /api/v1, as the spec addresses it) or a `/v1/systemone` style endpoint. Answers pass
 * through unchanged; they are validated, never recomputed.
 */
export function decisionsUrl(baseUrl: string): string {
  let url = urls.get(baseUrl);
  if (url === undefined) {
    url = decisionsUrlOf(baseUrl);
    if (urls.size < 1_000) urls.set(baseUrl, url);
  }
  return url;
}

function decisionsUrlOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (trimmed.endsWith('/api/v1')) return `${trimmed.slice(0, -'/api/v1'.length)}/api/alpha/decisions`;
  if (trimmed.endsWith('/systemone')) return trimmed;
  return `${trimmed}/api/alpha/decisions`;
}

export const decisionsAdapter: ProviderAdapter = {
  wireFormat: 'decisions',
  async decide(target, request, ctx): Promise<DecideResult> {
    const started = ctx.clock.now();
    const headers: Record<string, string> = target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {};
    const response = await ctx.http.postJson(decisionsUrl(target.baseUrl), { ...request, model: target.model }, { headers, signal: ctx.signal });
    const text = await readText(response.body, ctx.signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UpstreamError('invalid_response', 'response body is not JSON');
    }
    // A plainly valid response passes a quick check; anything else gets the schema (and its message).
    const parsed = isPlainDecisionsResponse(json) ? { success: true as const, data: json } : DecisionsResponseSchema.safeParse(json);
    if (!parsed.success) throw new UpstreamError('invalid_response', `response is not a DecisionsResponse (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
    const totalMs = ctx.clock.now() - started;
    return {
      response: parsed.data,
      usage: {
        inputTokens: parsed.data.usage.input_tokens,
        outputTokens: parsed.data.usage.output_tokens,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        cost: parsed.data.usage.cost ?? null,
      },
      // A whole answer arrives at once: its first token is its last.
      timings: { ttfbMs: response.ttfbMs, firstTokenMs: totalMs, totalMs },
    };
  },
};

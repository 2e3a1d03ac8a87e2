import type { DecideResult, ProviderAdapter } from '../types';
import { readNativeReply } from '../native-reply';
import { classifySystemOneError } from '../systemone/errors';
import { systemOneHeaders } from '../systemone/adapter';
import { SystemOneReplySchema, answersFromSystemOne, systemOneBody, usageFromSystemOne } from '../systemone/translate';

/** Decisions URLs by base URL, worked out once each. */
const urls = new Map<string, string>();

/**
 * Where another gateway answers Decisions: `/api/alpha/decisions` at its host root when its base
 * URL ends in /api/v1 (as the spec addresses it), a base that already ends in `/systemone` or
 * `/decisions` as it is, else `/api/alpha/decisions` under the base.
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
  if (trimmed.endsWith('/systemone') || trimmed.endsWith('/decisions')) return trimmed;
  return `${trimmed}/api/alpha/decisions`;
}

/**
 * Another gateway that serves the spec's route (OpenRouter's `/api/alpha/decisions`): the System One
 * family's body (images as parts of the state), the reply passed through with its `cost` and cached
 * tokens. Routing preferences, session and user stay here.
 */
export const decisionsAdapter: ProviderAdapter = {
  wireFormat: 'decisions',
  async decide(target, ask, ctx): Promise<DecideResult> {
    const host = target.host!;
    const started = ctx.clock.now();
    const response = await ctx.http.postJson(decisionsUrl(target.baseUrl), systemOneBody(target.model, ask, host), {
      headers: systemOneHeaders(target.apiKey, host.headers),
      signal: ctx.signal,
      classify: classifySystemOneError,
    });
    const { reply, timings } = await readNativeReply(response, SystemOneReplySchema, ctx, started);
    return { answers: answersFromSystemOne(reply), usage: usageFromSystemOne(reply), timings };
  },
};

import type { DecideResult, ProviderAdapter } from '../types';
import { nativeUrl, readNativeReply } from '../native-reply';
import { UpstreamError } from '../upstream-error';
import { classifySystemOneError } from './errors';
import { CloudflareEnvelopeSchema, SystemOneReplySchema, answersFromSystemOne, systemOneBody, usageFromSystemOne } from './translate';

/** Headers of a System One call: the key as a bearer token, and whatever the host's row adds. */
export function systemOneHeaders(apiKey: string | undefined, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...extra };
}

/**
 * A host of the System One family (TypeSafe's `/v1/systemone`, Perplexity's and Portkey's
 * `/v1/decisions`, Fireworks, Cloudflare Workers AI, Liquid, local servers): `POST {base_url}{path}`
 * as the host's row says, the images as it takes them, the reply (unwrapped from Cloudflare's
 * envelope where there is one) passed through.
 */
export const systemOneAdapter: ProviderAdapter = {
  wireFormat: 'systemone',
  async decide(target, ask, ctx): Promise<DecideResult> {
    const host = target.host!;
    const started = ctx.clock.now();
    const url = nativeUrl(target.baseUrl, host.path, target.model);
    const response = await ctx.http.postJson(url, systemOneBody(target.model, ask, host), {
      headers: systemOneHeaders(target.apiKey, host.headers),
      signal: ctx.signal,
      classify: classifySystemOneError,
    });
    const { reply, timings } = await readNativeReply(
      response,
      SystemOneReplySchema,
      ctx,
      started,
      host.envelope === 'cloudflare' ? unwrapCloudflare : undefined,
    );
    return { answers: answersFromSystemOne(reply), usage: usageFromSystemOne(reply), timings };
  },
};

/** Cloudflare answers inside `{result, success, errors}`; a 2xx with `success: false` is a failure all the same. */
function unwrapCloudflare(json: unknown): unknown {
  const envelope = CloudflareEnvelopeSchema.safeParse(json);
  if (!envelope.success) throw new UpstreamError('invalid_response', "the reply is not in Cloudflare's {result, success, errors} envelope");
  if (!envelope.data.success) {
    throw new UpstreamError(
      'invalid_response',
      `Cloudflare answered success: false (${envelope.data.errors.map((e) => `${e.code ?? ''} ${e.message}`.trim()).join('; ') || 'no error given'})`,
    );
  }
  return envelope.data.result;
}

import type { WireFormat } from '../../../shared/schemas/inspector';
import type { UpstreamResponse } from './http';
import type { CallContext, ChatRequest, ChatResult, ProviderAdapter, Target } from './types';
import type { ErrorClassifier } from './upstream-error';

/** A chat request as a wire family builds it. */
export interface ChatCall {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * A chat adapter of a streamed wire family: the call as the family builds it, posted with the
 * family's error classifier, its stream read from the moment before the call was built.
 */
export function streamedChatAdapter(
  wireFormat: WireFormat,
  build: (target: Target, request: ChatRequest) => ChatCall,
  classify: ErrorClassifier,
  read: (response: UpstreamResponse, ctx: CallContext, started: number, baseUrl: string) => Promise<ChatResult>,
): ProviderAdapter {
  return {
    wireFormat,
    async chat(target, request, ctx): Promise<ChatResult> {
      const started = ctx.clock.now();
      const call = build(target, request);
      const response = await ctx.http.postJson(call.url, call.body, { headers: call.headers, signal: ctx.signal, classify });
      return read(response, ctx, started, target.baseUrl);
    },
  };
}

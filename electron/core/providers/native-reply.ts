import type { z } from 'zod';
import type { CallContext, Timings } from './types';
import { readText, type UpstreamResponse } from './http';
import { UpstreamError, upstreamJson } from './upstream-error';

/**
 * A native Decisions host's reply read whole and checked against its family's schema; a body
 * that is not JSON or not of the shape is an invalid response naming where it broke.
 */
export async function readNativeReply<T>(
  response: UpstreamResponse,
  schema: z.ZodType<T>,
  ctx: CallContext,
  started: number,
  unwrap: (json: unknown) => unknown = (j) => j,
): Promise<{ reply: T; timings: Timings }> {
  const text = await readText(response.body, ctx.signal);
  const json = upstreamJson(text, 'the reply');
  const parsed = schema.safeParse(unwrap(json));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UpstreamError(
      'invalid_response',
      `the reply is not a Decisions answer (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unknown shape'})`,
    );
  }
  const totalMs = ctx.clock.now() - started;
  // A whole answer arrives at once: its first token is its last.
  return { reply: parsed.data, timings: { ttfbMs: response.ttfbMs, firstTokenMs: totalMs, totalMs } };
}

/** Where a host's Decisions are posted: its base URL and its row's path (`{model}` filled in). */
export function nativeUrl(baseUrl: string, path: string, model: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${path.replace('{model}', model)}`;
}

import { UpstreamError } from './upstream-error';
import type { UpstreamResponse } from './http';
import type { CallContext, ChatResult, TokenAlternatives, UpstreamUsage } from './types';

/** A JSON object (not null, not an array). */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One SSE event's data as a JSON object; anything else is an invalid response naming what it was. */
export function jsonEvent(data: string, what: string): Obj {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new UpstreamError('invalid_response', `malformed ${what}`);
  }
  if (!isObj(value)) throw new UpstreamError('invalid_response', `malformed ${what}: not a JSON object`);
  return value;
}

/** A field that must be absent, null or of one type: a wrong type is an invalid response. */
export function field<T>(value: unknown, check: (v: unknown) => T | undefined, what: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  const checked = check(value);
  if (checked === undefined) throw new UpstreamError('invalid_response', `malformed stream chunk: ${what}`);
  return checked;
}

/**
 * What a stream loop gathers: text, tokens, usage, the moment of the first output token. Shared
 * by the adapters so timing and the ChatResult are made the same way for every wire format.
 */
export class StreamState {
  text = '';
  firstTokenMs: number | null = null;
  readonly tokens: TokenAlternatives[] = [];
  sawLogprobs = false;
  upstreamId: string | null = null;
  finishReason: string | null = null;

  constructor(
    private readonly ctx: CallContext,
    private readonly started: number,
  ) {}

  /** Appends output text; the first non-empty piece marks the first token. */
  addText(delta: string): void {
    if (delta === '') return;
    if (this.firstTokenMs === null) {
      this.firstTokenMs = this.ctx.clock.now() - this.started;
      this.ctx.onFirstToken?.();
    }
    this.text += delta;
  }

  result(response: UpstreamResponse, usage: UpstreamUsage): ChatResult {
    return {
      text: this.text,
      tokens: this.sawLogprobs ? this.tokens : null,
      usage,
      timings: { ttfbMs: response.ttfbMs, firstTokenMs: this.firstTokenMs, totalMs: this.ctx.clock.now() - this.started },
      upstreamId: this.upstreamId,
      finishReason: this.finishReason,
    };
  }
}

/** A provider's name for messages, from its API's host ("api.together.xyz" → "Together"); the host itself when unknown. */
export function providerLabel(baseUrl: string, fallback: string): string {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return fallback;
  }
  const known: [RegExp, string][] = [
    [/(^|\.)openai\.com$/, 'OpenAI'],
    [/(^|\.)anthropic\.com$/, 'Anthropic'],
    [/(^|\.)googleapis\.com$/, 'Gemini'],
    [/(^|\.)together\.(xyz|ai)$/, 'Together'],
    [/(^|\.)mistral\.ai$/, 'Mistral'],
    [/(^|\.)groq\.com$/, 'Groq'],
    [/(^|\.)fireworks\.ai$/, 'Fireworks'],
    [/(^|\.)deepinfra\.com$/, 'DeepInfra'],
    [/(^|\.)openrouter\.ai$/, 'OpenRouter'],
  ];
  for (const [pattern, name] of known) if (pattern.test(host)) return name;
  return host === '127.0.0.1' || host === 'localhost' ? fallback : host;
}

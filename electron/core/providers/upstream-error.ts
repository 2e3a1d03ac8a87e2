import type { AttemptOutcome } from '../metrics/attempt';
import type { UpstreamUsage } from './types';

export type FailureKind = Exclude<AttemptOutcome, 'ok'>;

/** A failed upstream call, classified into the closed set of kinds the executor acts on. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly details: {
      status?: number;
      retryAfterMs?: number;
      /** For 'unsupported': the request-level name of what the endpoint refused (see `requestParameter`). */
      parameter?: string;
      /** What the call used before it failed (a refusal or an exhausted budget is still billed). */
      usage?: UpstreamUsage;
    } = {},
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** Seconds or an HTTP date (Retry-After), or milliseconds (retry-after-ms), as ms to wait. */
export function parseRetryAfter(headers: Record<string, string | string[] | undefined>, now: number): number | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = first(headers['retry-after']);
  if (value === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The kind of failure an HTTP status means for a model API. */
export function kindForStatus(status: number): FailureKind {
  if (status === 429) return 'rate_limited';
  if (status === 529 || status === 503) return 'overloaded';
  if (status === 408 || status === 504 || status === 524) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'server_error';
}

/** Reads a provider's error message from the usual envelopes, falling back to the raw text. */
export function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (body.error && typeof body.error.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: use the text itself.
  }
  return text.slice(0, 300).trim() || '(empty body)';
}

/**
 * Turns an HTTP failure into its UpstreamError, given the body and the error the status alone
 * gives; each provider folder's errors.ts has one, passed to UpstreamHttp in the call's options.
 */
/** An upstream body as JSON; an invalid response saying `what` is not JSON when it is not. */
export function upstreamJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('invalid_response', `${what} is not JSON`);
  }
}

export type ErrorClassifier = (status: number, body: string, fallback: UpstreamError) => UpstreamError;

/** Request-level names of what an endpoint can refuse, whatever a provider calls them. */
export type RequestParameter =
  'max_tokens' | 'temperature' | 'stream_options' | 'logprobs' | 'top_logprobs' | 'response_format' | 'reasoning_effort' | 'thinking';

const PARAMETER_ALIASES: Record<string, RequestParameter> = {
  max_tokens: 'max_tokens',
  max_completion_tokens: 'max_tokens',
  max_output_tokens: 'max_tokens',
  maxoutputtokens: 'max_tokens',
  temperature: 'temperature',
  stream_options: 'stream_options',
  logprobs: 'logprobs',
  responselogprobs: 'logprobs',
  response_logprobs: 'logprobs',
  top_logprobs: 'top_logprobs',
  response_format: 'response_format',
  responseschema: 'response_format',
  response_schema: 'response_format',
  responsejsonschema: 'response_format',
  response_json_schema: 'response_format',
  responsemimetype: 'response_format',
  response_mime_type: 'response_format',
  output_format: 'response_format',
  output_config: 'response_format',
  json_schema: 'response_format',
  reasoning_effort: 'reasoning_effort',
  reasoning: 'reasoning_effort',
  thinking: 'thinking',
  thinkingconfig: 'thinking',
  thinking_config: 'thinking',
  thinkingbudget: 'thinking',
  thinking_budget: 'thinking',
  thinkinglevel: 'thinking',
  thinking_level: 'thinking',
};

/**
 * The request-level name for a provider's parameter name or path (`generation_config.response_logprobs`,
 * `thinking.type.enabled`, `body.stream_options`): its first recognised segment, else the raw name.
 */
export function requestParameter(raw: string): string {
  for (const segment of raw.split(/[.[\]]/)) {
    const known = PARAMETER_ALIASES[segment.trim().toLowerCase()];
    if (known) return known;
  }
  return raw;
}

/** A request-level parameter named in free text, e.g. "`temperature` is deprecated", "Logprobs is not enabled". */
export function parameterInText(text: string): RequestParameter | undefined {
  const words = text.toLowerCase().match(/[a-z_]+/g) ?? [];
  for (const word of words) {
    const known = PARAMETER_ALIASES[word];
    if (known) return known;
  }
  return undefined;
}

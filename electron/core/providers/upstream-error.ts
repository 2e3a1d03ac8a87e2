import type { AttemptOutcome } from '../metrics/attempt';

export type FailureKind = Exclude<AttemptOutcome, 'ok'>;

/** A failed upstream call, classified into the closed set of kinds the executor acts on. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number } = {},
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

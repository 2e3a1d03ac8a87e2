import { UpstreamError, parameterInText, requestParameter, type ErrorClassifier } from '../upstream-error';

interface GoogleError {
  error?: { code?: unknown; message?: unknown; status?: unknown; details?: unknown };
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
/** How the Gemini API says a model does not offer a feature ("Logprobs is not enabled for models/…"). */
const UNSUPPORTED_TEXT =
  /is not enabled for|not supported (for|by|with|on) this model|is not supported|does not support|only works in thinking mode|not available for this model/i;

/** A google.protobuf.Duration in its JSON form ("17s", "0.5s", "1.000340s") as ms. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.ceil(Number(match[1]) * 1000) : undefined;
}

/**
 * Gemini API error bodies (google.rpc.Status): a 429's `RetryInfo.retryDelay` is the wait when no
 * Retry-After header gave one; a body saying the model does not offer a parameter or feature
 * (log-probabilities, thinking, an unknown generationConfig field) is 'unsupported', whatever the status.
 */
export const classifyGeminiError: ErrorClassifier = (status, text, fallback) => {
  let body: GoogleError;
  try {
    body = JSON.parse(text) as GoogleError;
  } catch {
    return fallback;
  }
  const error = body?.error;
  if (error === null || typeof error !== 'object') return fallback;
  if (status === 429 && fallback.details.retryAfterMs === undefined && Array.isArray(error.details)) {
    for (const detail of error.details as unknown[]) {
      const d = detail as { '@type'?: unknown; retryDelay?: unknown } | null;
      const ms = d?.['@type'] === RETRY_INFO ? durationMs(d.retryDelay) : undefined;
      if (ms !== undefined) return new UpstreamError(fallback.kind, fallback.message, { ...fallback.details, retryAfterMs: ms });
    }
    return fallback;
  }
  if (typeof error.message !== 'string') return fallback;
  const message = error.message;
  // "Invalid JSON payload received. Unknown name \"thinkingConfig\" at 'generation_config'": a field this API version lacks.
  const unknownName = /Unknown name "([\w.]+)"/.exec(message)?.[1];
  const parameter = unknownName !== undefined ? requestParameter(unknownName) : UNSUPPORTED_TEXT.test(message) ? parameterInText(message) : undefined;
  if (parameter === undefined) return fallback;
  return new UpstreamError('unsupported', fallback.message, { ...fallback.details, parameter });
};

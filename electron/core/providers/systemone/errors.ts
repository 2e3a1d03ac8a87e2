import { UpstreamError, type ErrorClassifier } from '../upstream-error';

/**
 * Error bodies of the System One family, read into a message that says what the host objected to:
 *
 * - TypeSafe (FastAPI): 422 `{detail: [{loc, msg, type, …}]}`, each issue as `questions.x.criteria: msg`
 *   (`body` dropped from `loc`, as TypeSafe's own SDK does); `{detail: "Not Found"}`; a bare
 *   `{error_type: "max_tokens_exceeded"}` when the state and questions are longer than it reads;
 * - Cloudflare: `{success: false, errors: [{code, message}]}`; code 4006 (the daily free allocation
 *   used up) is a problem of the account, like a quota, not a passing rate limit;
 * - OpenRouter and Perplexity: `{error: {message, …}}`, which the status's default already reads.
 *
 * The kind stays the status's (a 422 is the request's fault, a 401 the key's, a 429 a rate limit).
 */
export const classifySystemOneError: ErrorClassifier = (status, text, fallback) => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fallback;
  }
  if (typeof body !== 'object' || body === null) return fallback;
  const b = body as { detail?: unknown; error_type?: unknown; errors?: unknown };
  const message = detailMessage(b.detail) ?? errorTypeMessage(b.error_type) ?? cloudflareMessage(b.errors);
  if (message === null) return fallback;
  const quota = Array.isArray(b.errors) && b.errors.some((e) => (e as { code?: unknown }).code === 4006);
  return new UpstreamError(quota ? 'quota' : fallback.kind, `HTTP ${status}: ${message}`, { ...fallback.details });
};

function detailMessage(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail) || detail.length === 0) return null;
  return detail
    .slice(0, 5)
    .map((issue) => {
      const { loc, msg } = issue as { loc?: unknown; msg?: unknown };
      const path = Array.isArray(loc) ? loc.filter((s) => s !== 'body').join('.') : '';
      return `${path ? `${path}: ` : ''}${typeof msg === 'string' ? msg : 'invalid'}`;
    })
    .join('; ');
}

function errorTypeMessage(errorType: unknown): string | null {
  if (errorType === 'max_tokens_exceeded') return 'the state and questions are longer than the model reads (max_tokens_exceeded)';
  return typeof errorType === 'string' ? errorType : null;
}

function cloudflareMessage(errors: unknown): string | null {
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors
    .map(
      (e) =>
        `${(e as { code?: unknown }).code !== undefined ? `code ${String((e as { code: unknown }).code)}: ` : ''}${String((e as { message?: unknown }).message ?? '')}`,
    )
    .join('; ');
}

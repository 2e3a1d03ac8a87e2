import { UpstreamError, parameterInText, requestParameter, type ErrorClassifier } from '../upstream-error';

/** The body of an OpenAI-compatible error, or of a FastAPI validation error (Mistral's 422). */
interface ErrorBody {
  error?: { message?: unknown; type?: unknown; code?: unknown; param?: unknown } | string | null;
  /** Mistral: `{object: 'error', message: string | {detail: [...]}, type, param, code}` */
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
  detail?: unknown;
}

interface ValidationIssue {
  type?: unknown;
  loc?: unknown;
  msg?: unknown;
}

const UNSUPPORTED_CODES = new Set(['unsupported_parameter', 'unsupported_value']);
/**
 * Wording of a refusal that is about the endpoint, not about what the caller sent. "You are not
 * allowed to request logprobs from this model" is OpenAI's 403 for its reasoning models.
 */
const UNSUPPORTED_TEXT =
  /unsupported (parameter|value)|not supported (with|by|for) this model|is not supported|does not support|not available for this model|not enabled for|not allowed to request|extra inputs are not permitted|unrecognized request argument/i;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function parse(text: string): ErrorBody | null {
  try {
    const body = JSON.parse(text) as unknown;
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ErrorBody) : null;
  } catch {
    return null;
  }
}

/** FastAPI/pydantic `detail` issues (Mistral answers 422 with them, at the top level or under `message`). */
function validationIssues(body: ErrorBody): ValidationIssue[] {
  const nested = body.message !== null && typeof body.message === 'object' ? (body.message as { detail?: unknown }).detail : undefined;
  const detail = Array.isArray(body.detail) ? body.detail : Array.isArray(nested) ? nested : [];
  return detail.filter((d): d is ValidationIssue => d !== null && typeof d === 'object');
}

function unsupported(status: number, message: string, parameter: string): UpstreamError {
  return new UpstreamError('unsupported', `HTTP ${status}: ${message}`, { status, parameter: requestParameter(parameter) });
}

/**
 * OpenAI-compatible error bodies: `insufficient_quota` is a key problem (quota), not a passing
 * rate limit; a body naming a parameter or value the model does not support (OpenAI's
 * `unsupported_parameter` / `unsupported_value`, a `param` with "not supported" wording, Mistral's
 * `extra_forbidden`, OpenAI's 403 "not allowed to request logprobs") is the endpoint's capability,
 * not the caller's fault, whatever the status. A 401 or 403 that names no parameter (a bad key, a
 * project without access to the model) stays a key problem.
 */
export const classifyOpenAiError: ErrorClassifier = (status, text, fallback) => {
  const body = parse(text);
  if (!body) return fallback;
  const error = typeof body.error === 'object' && body.error !== null ? body.error : null;
  const code = str(error?.code) ?? str(body.code);
  const type = str(error?.type) ?? str(body.type);
  if (code === 'insufficient_quota' || type === 'insufficient_quota') {
    return new UpstreamError('quota', fallback.message, { ...fallback.details });
  }
  const issues = validationIssues(body);
  const extra = issues.find((i) => i.type === 'extra_forbidden' && Array.isArray(i.loc));
  if (extra) {
    const path = (extra.loc as unknown[]).filter((s) => s !== 'body').join('.');
    return unsupported(status, `${path}: ${str(extra.msg) ?? 'not permitted'}`, path);
  }
  const message = str(error?.message) ?? str(body.message) ?? '';
  const param = str(error?.param) ?? str(body.param);
  if ((code !== undefined && UNSUPPORTED_CODES.has(code)) || UNSUPPORTED_TEXT.test(message)) {
    const named = param ?? parameterInText(message);
    if (named !== undefined) return unsupported(status, message, named);
  }
  return fallback;
};

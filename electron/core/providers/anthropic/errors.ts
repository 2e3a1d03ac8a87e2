import { UpstreamError, parameterInText, requestParameter, type ErrorClassifier } from '../upstream-error';

/** How Anthropic says a model does not take a parameter ("`temperature` is deprecated for this model", "… is not supported …"). */
const UNSUPPORTED_TEXT = /deprecated for this model|not supported (for|with|by|on) this model|is not supported|does not support|not available for this model/i;

/**
 * Anthropic error bodies (`{type: 'error', error: {type, message}}`): a body saying the model does
 * not take a parameter is the endpoint's capability ('unsupported'), whatever the status, named by
 * the backquoted field or a known parameter in the message; other errors keep their status's kind.
 */
export const classifyAnthropicError: ErrorClassifier = (_status, text, fallback) => {
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    message = typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return fallback;
  }
  if (message === undefined || !UNSUPPORTED_TEXT.test(message)) return fallback;
  const quoted = /`([A-Za-z_][\w.]*)`/.exec(message)?.[1];
  const parameter = quoted !== undefined ? requestParameter(quoted) : parameterInText(message);
  if (parameter === undefined) return fallback;
  return new UpstreamError('unsupported', fallback.message, { ...fallback.details, parameter });
};

import type { ServerResponse } from 'node:http';
import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { GatewayError, jsonTextTooDeepAt, MAX_JSON_DEPTH, refuseReservedKeys } from '../core';
import type { ErrorEnvelope } from '../../shared/schemas/error-envelope';

/** Sends a GatewayError in the spec's envelope, `error.code` equal to the HTTP status. */
export function sendError(c: Context, error: GatewayError): Response {
  const body: ErrorEnvelope = { error: error.toBody() };
  return c.json(body, error.status as ContentfulStatusCode, error.headers);
}

/** Line and column (1-based) of a character offset, for messages about malformed JSON. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses a JSON request body; a malformed one is a 400 that says where it broke, and so is a
 * `__proto__` key anywhere in it (JavaScript cannot keep it, so it would be dropped without a word).
 * A byte order mark before the JSON is read past, as RFC 8259 allows.
 */
export function parseJsonText(raw: string, what: string): unknown {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // A scan to the first non-blank character, not a trimmed copy of what may be megabytes.
  if (!/\S/.test(text)) throw new GatewayError('bad_request', `The request body is empty; expected ${what} as JSON`);
  const tooDeep = jsonTextTooDeepAt(text);
  if (tooDeep >= 0) {
    const { line, column } = lineAndColumn(text, tooDeep);
    throw new GatewayError('bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels at line ${line}, column ${column}; flatten it`, {
      metadata: { line, column, offset: tooDeep, max_depth: MAX_JSON_DEPTH },
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    const position = /position (\d+)/.exec(reason);
    const offset = position ? Number(position[1]) : text.length;
    const { line, column } = lineAndColumn(text, offset);
    const cleaned = reason.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    throw new GatewayError('bad_request', `Malformed JSON in the request body at line ${line}, column ${column}: ${cleaned}`, {
      metadata: { line, column, offset },
    });
  }
  refuseReservedKeys(value, text);
  return value;
}

/** 405 in the envelope, with Allow, for a path that exists under another method in `app`. */
export function rejectOtherMethods<E extends Env>(app: Hono<E>): MiddlewareHandler<E> {
  return methodNotAllowed<E>({
    app,
    onMethodNotAllowed: (c, methods) =>
      sendError(
        c,
        new GatewayError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(' or ')}`, {
          headers: { Allow: methods.join(', ') },
        }),
      ),
  });
}

/** Writes a GatewayError's envelope straight to a Node response (paths that bypass the router). */
export function writeError(res: ServerResponse, error: GatewayError, requestId: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ error: error.toBody() });
  res.writeHead(error.status, { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': Buffer.byteLength(body), ...error.headers });
  res.end(body);
}

import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Core } from '../core/core';
import { dispatch } from '../core/dispatch';
import { GatewayError } from '../core/errors';
import { parseJsonText } from './http-errors';
import { datasetUpload } from './dataset-upload-route';

export const SESSION_COOKIE = 'verdict_session';
/** Browsers cannot add this header to a cross-site request without a CORS preflight we never grant. */
export const CLIENT_HEADER = 'x-verdict-client';

const sameSecret = (a: string, b: string): boolean => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * The browser-mode session: the URL printed at start carries a one-run token; opening it sets an
 * HttpOnly, SameSite=Strict cookie. Inspector operations need that cookie and the client header.
 */
export function sessionGate(uiToken: string): MiddlewareHandler {
  return async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie || !sameSecret(cookie, uiToken)) {
      throw new GatewayError('unauthorized', 'This browser has no Verdict session; open the link that `npm start` printed');
    }
    if (c.req.header(CLIENT_HEADER) !== 'renderer') {
      throw new GatewayError('forbidden', `Inspector operations need the ${CLIENT_HEADER} header`);
    }
    await next();
  };
}

/** `GET /?token=…` exchanges the printed token for the session cookie, then drops it from the URL. */
export function sessionLogin(uiToken: string): MiddlewareHandler {
  return async (c, next) => {
    const token = c.req.query('token');
    if (token === undefined) return next();
    if (!sameSecret(token, uiToken)) {
      return c.text('This link has expired: Verdict was restarted. Open the link it printed most recently.', 401);
    }
    setCookie(c, SESSION_COOKIE, uiToken, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  };
}

/** Every inspector operation as `POST /api/inspector/<name>`, answering the same Result as IPC. */
export function inspectorApi(core: Core, options: { uiToken: string; bodyLimitBytes: number }): Hono {
  const api = new Hono();
  api.use('*', sessionGate(options.uiToken));
  // A dataset file as a stream, past the body limit; before the route that reads whole bodies.
  api.post('/datasets.upload', (c) => datasetUpload(core, c));
  api.post(
    '/:operation',
    bodyLimit({
      maxSize: options.bodyLimitBytes,
      onError: () => {
        throw new GatewayError('payload_too_large', `The request body is larger than ${options.bodyLimitBytes} bytes`);
      },
    }),
    async (c) => {
      const text = await c.req.text();
      const input = text.trim() === '' ? {} : parseJsonText(text, 'the operation input');
      const result = await dispatch(core, c.req.param('operation'), input);
      const status = (result.ok ? 200 : result.error.code) as ContentfulStatusCode;
      return c.json(result, status);
    },
  );
  return api;
}

import { Hono, type MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Core, dispatch, GatewayError, SESSION_LIFETIME_MS, parseStrictOrBadRequest } from '../core';
import { parseJsonText } from './http-errors';
import { readBodyText } from './body';
import type { BodyMemory } from './body-memory';
import { SignInInputSchema, type AuditActor, type UiSession } from '../../shared/schemas/audit';
import { datasetUpload } from './dataset-upload-route';

export const SESSION_COOKIE = 'verdict_session';

/**
 * The session cookie's name for the address the browser asked. Cookies ignore ports, so two
 * servers on one host (127.0.0.1:4100 and 127.0.0.1:4200) would overwrite each other's session
 * under one name and sign each other out; with the port in its name each keeps its own. The port
 * is the one the browser sees (the Host header), so instances behind one load balancer share one name.
 */
export function sessionCookie(url: string): string {
  const port = new URL(url).port;
  return port ? `${SESSION_COOKIE}_${port}` : SESSION_COOKIE;
}
/** Browsers cannot add this header to a cross-site request without a CORS preflight we never grant. */
export const CLIENT_HEADER = 'x-verdict-client';

const sameSecret = (a: string, b: string): boolean => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export const NO_SESSION_MESSAGE = 'This browser is not signed in to Verdict: sign in with your management key, or open the link that `npm start` printed';

/** What the session gate tells the inspector's routes: who is asking (named in the audit log), and the signed-in session if any. */
export type InspectorEnv = { Variables: { actor: AuditActor; session: UiSession; requestId: string } };

/**
 * The browser-mode session. Either the URL printed at start (a one-run token, this process's
 * alone) or a sign-in with a management key (`POST /api/inspector/session`; stored, so every
 * instance on the same database knows it) sets an HttpOnly, SameSite=Strict cookie. Inspector
 * operations need that cookie and the client header; a signed-in session whose key was revoked
 * stops at its next request, on every instance.
 */
export function sessionGate(core: Core, uiToken: string): MiddlewareHandler<InspectorEnv> {
  return async (c, next) => {
    const cookie = getCookie(c, sessionCookie(c.req.url));
    if (!cookie) throw new GatewayError('unauthorized', NO_SESSION_MESSAGE);
    if (sameSecret(cookie, uiToken)) {
      c.set('actor', { kind: 'ui_token' });
      c.set('session', { kind: 'ui_token' });
    } else {
      const found = await core.uiSessions.check(cookie);
      if (found === null) throw new GatewayError('unauthorized', NO_SESSION_MESSAGE);
      if ('ended' in found) throw new GatewayError('unauthorized', found.ended, { metadata: { session: 'ended' } });
      c.set('actor', found.actor);
      c.set('session', found.session);
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
      return c.text('This link has expired: Verdict was restarted. Open the link it printed most recently, or sign in with your management key.', 401);
    }
    setCookie(c, sessionCookie(c.req.url), uiToken, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  };
}

/**
 * Sign-in with a management key: `POST` checks the key (never stored, never logged) and opens a
 * session; `GET` says who is signed in; `DELETE` signs out. Standard keys are refused (403), keys
 * that are not ours or revoked with 401, each with a message saying which.
 */
function sessionRoutes(api: Hono<InspectorEnv>, core: Core): void {
  api.post('/session', async (c) => {
    if (c.req.header(CLIENT_HEADER) !== 'renderer') throw new GatewayError('forbidden', `Signing in needs the ${CLIENT_HEADER} header`);
    const { key } = parseStrictOrBadRequest(SignInInputSchema, parseJsonText(await c.req.text(), 'the sign-in'), 'sign-in');
    const { token, active } = await core.uiSessions.signIn(key);
    core.logger.info({ key_id: active.actor.key_id, request_id: c.get('requestId') }, 'signed in to the web UI');
    setCookie(c, sessionCookie(c.req.url), token, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: Math.floor(SESSION_LIFETIME_MS / 1000) });
    return c.json({ ok: true, data: active.session });
  });
  api.get('/session', (c) => c.json({ ok: true, data: c.get('session') }));
  api.delete('/session', async (c) => {
    const cookie = getCookie(c, sessionCookie(c.req.url));
    if (cookie && c.get('session').kind === 'management_key') await core.uiSessions.signOut(cookie);
    deleteCookie(c, sessionCookie(c.req.url), { path: '/' });
    return c.json({ ok: true, data: { signed_out: true } });
  });
}

/** An operation's input: its body as JSON, none when empty (the body's text is not kept while the operation runs). */
const operationInput = (text: string): unknown => (text.trim() === '' ? {} : parseJsonText(text, 'the operation input'));

/** Every inspector operation as `POST /api/inspector/<name>`, answering the same Result as IPC; and signing in and out. */
export function inspectorApi(core: Core, options: { uiToken: string; bodyLimitBytes: number; bodyMemory: BodyMemory }): Hono<InspectorEnv> {
  const api = new Hono<InspectorEnv>();
  const gate = sessionGate(core, options.uiToken);
  // Signing in is the one request a browser makes before it has a session.
  api.use('*', (c, next) => (c.req.method === 'POST' && c.req.path.endsWith('/session') ? next() : gate(c, next)));
  sessionRoutes(api, core);
  // A dataset file as a stream, past the body limit; before the route that reads whole bodies.
  api.post('/datasets.upload', (c) => datasetUpload(core, c, c.get('actor')));
  api.post('/:operation', async (c) => {
    const input = operationInput(await readBodyText(c, options.bodyLimitBytes, options.bodyMemory));
    const result = await dispatch(core, c.req.param('operation'), input, c.get('actor'));
    const status = (result.ok ? 200 : result.error.code) as ContentfulStatusCode;
    return c.json(result, status);
  });
  return api;
}

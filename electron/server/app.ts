import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { type Core, GatewayError, isGatewayError, StorageUnavailable } from '../core';
import { sendError } from './http-errors';
import { inspectorApi, sessionLogin } from './inspector-api';
import { publicApi } from './public-api';
import { staticUi } from './static-ui';
import { LOOPBACK_HOSTNAMES } from './hosts';
import { observability, type Observability } from './observability';
import { BodyMemory } from './body-memory';

export const DEFAULT_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

export interface ServerAppOptions {
  uiToken: string;
  rendererDir: string;
  bodyLimitBytes?: number;
  /** What large request bodies may hold at once; shared with the Decisions lane when the server starts one (a budget of its own otherwise). */
  bodyMemory?: BodyMemory;
  /** Host names the server answers to; requests naming another Host are refused (DNS rebinding). */
  allowedHostnames?: readonly string[] | null;
  /** Health, readiness and metrics, when the HTTP server counts requests itself (it sees those the router never does). */
  observability?: Observability;
}

export { LOOPBACK_HOSTNAMES } from './hosts';

/** The Content-Security-Policy of the UI: our own scripts only, images may be data/blob URLs. */
export const UI_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

/** Refuses a request that names a host this server does not answer to (DNS rebinding). */
export function checkHost(allowed: readonly string[], hostHeader: string): void {
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i.test(hostHeader)) {
    throw new GatewayError(
      'bad_request',
      hostHeader
        ? `The Host header "${hostHeader.slice(0, 100)}" is not a host name or address`
        : 'The Host header is missing; HTTP/1.1 requests name the host they are for',
    );
  }
  const host = hostHeader.replace(/:\d+$/, '').toLowerCase();
  if (!allowed.includes(host)) throw new GatewayError('forbidden', `Requests for host "${host}" are not served here`);
}

/** What the caller sees of any failure: a GatewayError as it is; anything else a logged 500 that leaks nothing. */
export function asGatewayError(core: Core, error: unknown, requestId: string, path: string): GatewayError {
  if (error instanceof StorageUnavailable) {
    core.logger.warn({ err: error, request_id: requestId, path }, 'database unavailable');
    return new GatewayError('unavailable', 'The database did not answer; nothing of this request was kept. Try again shortly', {
      metadata: { request_id: requestId },
    });
  }
  if (isGatewayError(error)) {
    // A fault of ours caught deeper down (its cause is the bug) is logged like any other.
    if (error.kind === 'internal' && error.cause !== undefined) core.logger.error({ err: error.cause, request_id: requestId, path }, 'request failed');
    return error;
  }
  core.logger.error({ err: error, request_id: requestId, path }, 'request failed');
  return new GatewayError('internal', `Internal server error (request ${requestId})`, { metadata: { request_id: requestId } });
}

/** The headless host: public API, inspector operations and the built UI, on one origin. */
export function createServerApp(core: Core, options: ServerAppOptions): Hono<{ Variables: { requestId: string } }> {
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const bodyMemory = options.bodyMemory ?? new BodyMemory();
  const allowed = options.allowedHostnames === undefined ? LOOPBACK_HOSTNAMES : options.allowedHostnames;
  const app = new Hono<{ Variables: { requestId: string } }>();

  app.onError((error, c) => sendError(c, asGatewayError(core, error, c.res.headers.get('x-request-id') ?? randomUUID(), c.req.path)));
  app.notFound((c) => sendError(c, new GatewayError('not_found', `No route for ${c.req.method} ${c.req.path}`)));

  app.use('*', async (c, next) => {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    // The Host header names the server the browser thinks it talks to (in-process tests: the URL).
    if (allowed) checkHost(allowed, c.req.header('host') ?? new URL(c.req.url).host);
    await next();
  });
  // Browser-facing headers for the UI only; API answers are JSON read by programs.
  const uiHeaders = secureHeaders({
    contentSecurityPolicy: UI_CONTENT_SECURITY_POLICY,
    crossOriginEmbedderPolicy: false,
    // Served over plain HTTP on loopback: HSTS would mean nothing here.
    strictTransportSecurity: false,
    xFrameOptions: 'DENY',
  });
  app.use('*', async (c, next) => (c.req.path.startsWith('/api/') ? next() : uiHeaders(c, next)));
  // Liveness, readiness and Prometheus metrics for a team's operators; every /api request counted.
  const watch = options.observability ?? observability(core);
  if (!options.observability) app.use('/api/*', watch.middleware);
  app.route('/', watch.routes);

  app.route('/api/inspector', inspectorApi(core, { uiToken: options.uiToken, bodyLimitBytes, bodyMemory }));
  app.route('/api', publicApi(core, { bodyLimitBytes, bodyMemory }));
  app.all('/api/*', (c) => sendError(c, new GatewayError('not_found', `No route for ${c.req.method} ${c.req.path}`)));
  app.use('/', sessionLogin(options.uiToken));
  app.route('/', staticUi(options.rendererDir));
  return app;
}

/**
 * What a team's operators check first: `GET /healthz` (the process answers), `GET /readyz` (200 while its
 * database answers, "degraded" with Redis away; 503 naming the database when it does not), and `GET /metrics` in Prometheus's text format, per
 * instance (prom-client): API requests and their latency by route and status, admission refusals
 * by reason, requests answered per provider and outcome, spend, and the process's own figures. No
 * label carries a key, a user or a request's content.
 */
import { SHAPES, onFirstUse, type Core } from '../core';
import { Hono, type MiddlewareHandler } from 'hono';
import type * as PromClient from 'prom-client';
import { registerLoopMetrics, setFigures, type LoopSources } from './loop-metrics';

/** The public API's routes, by the path a request names (anything else under /api is "other"). */
const ROUTES = [...SHAPES.map((shape) => `/api${shape.path}`), '/api/v1/models', '/api/v1/key', '/api/v1/keys'];

const routeOf = (path: string): string =>
  ROUTES.find((r) => path === r || path.startsWith(`${r}/`)) ?? (path.startsWith('/api/inspector/') ? 'inspector' : 'other');

/**
 * prom-client, loaded with the first API request or scrape: an idle server holds neither it nor its
 * default metrics (whose event-loop monitor alone keeps a 1 MB histogram and wakes the loop every
 * 10 ms). The process's own figures (CPU, memory, GC, event-loop lag) are measured from then on.
 */
const promClient = onFirstUse<typeof PromClient>('prom-client');

/** Why a request was refused before it was answered, by its status. */
const REFUSALS: Record<number, string> = { 401: 'key', 402: 'credit', 403: 'forbidden', 413: 'too_large', 429: 'rate' };

export interface Observability {
  /** Counts and times one /api request that was answered (its path as requested, query and all). */
  observe(path: string, status: number, seconds: number): void;
  /** `observe` as router middleware, for an app served without the HTTP server's own count (tests). */
  middleware: MiddlewareHandler;
  /** /healthz, /readyz and /metrics. */
  routes: Hono;
  /** Stops listening to the core. */
  close(): void;
  /** From now on /readyz answers 503 "draining": the instance is stopping, a load balancer sends it nothing new. */
  drain(): void;
}

export function observability(core: Core): Observability {
  let draining = false;
  let metrics: Metrics | null = null;
  const figures = () =>
    (metrics ??= makeMetrics({ queue: () => core.humanStage.figures(), answers: () => core.captureTap.answerCounts(), sets: setFigures(core) }));
  const stop = core.requestLog.onAppend((entry) => {
    const outcome = entry.status < 400 ? 'ok' : entry.status < 500 ? 'client_error' : 'upstream_error';
    const { answered, spend } = figures();
    answered.inc({ provider: entry.provider ?? 'none', outcome });
    if (entry.cost !== null && entry.cost > 0) spend.inc(entry.cost);
  });

  // Each route and status's series looked up once, not its labels hashed on every request.
  const counted = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const series = (path: string, status: number) => {
    const key = `${status} ${path}`;
    let s = counted.get(key);
    if (!s) {
      const route = routeOf(path.split('?', 1)[0]!);
      const { requests, latency, refusals } = figures();
      const requested = requests.labels(route, String(status));
      const timed = latency.labels(route);
      const reason = REFUSALS[status];
      const refused = reason ? refusals.labels(reason) : null;
      s = {
        count: () => {
          requested.inc();
          refused?.inc();
        },
        time: (seconds) => timed.observe(seconds),
      };
      // Paths with ids or queries in them are not kept one by one.
      if (counted.size < 1000) counted.set(key, s);
    }
    return s;
  };
  const observe = (path: string, status: number, seconds: number) => {
    const s = series(path, status);
    s.count();
    s.time(seconds);
  };
  const middleware: MiddlewareHandler = async (c, next) => {
    if (!c.req.path.startsWith('/api/')) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      observe(c.req.path, c.res.status, (performance.now() - started) / 1000);
    }
  };

  const routes = healthRoutes(core, () => draining, figures);
  return {
    observe,
    middleware,
    routes,
    close: () => void stop(),
    drain: () => {
      draining = true;
    },
  };
}

/** This instance's Prometheus registry: the process's default figures and the gateway's own counters. Made when first asked. */
function makeMetrics(sources: LoopSources): {
  registry: PromClient.Registry;
  requests: PromClient.Counter;
  latency: PromClient.Histogram;
  refusals: PromClient.Counter;
  answered: PromClient.Counter;
  spend: PromClient.Counter;
} {
  const { Counter, Histogram, Registry, collectDefaultMetrics } = promClient();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'verdict_' });
  registerLoopMetrics(promClient(), registry, sources);
  return {
    registry,
    requests: new Counter({
      name: 'verdict_http_requests_total',
      help: 'API requests answered, by route and status',
      labelNames: ['route', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'verdict_http_request_duration_seconds',
      help: 'Time to answer an API request, by route',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'verdict_admission_refusals_total',
      help: 'API requests refused before they were answered, by reason (key, credit, rate, forbidden, too_large)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    answered: new Counter({
      name: 'verdict_decisions_total',
      help: 'Decisions requests that reached a provider, by provider and outcome (ok, client_error, upstream_error)',
      labelNames: ['provider', 'outcome'],
      registers: [registry],
    }),
    spend: new Counter({ name: 'verdict_spend_usd_total', help: 'USD charged to API keys by this instance', registers: [registry] }),
  };
}

type Metrics = ReturnType<typeof makeMetrics>;

/** /healthz (the process answers), /readyz (its database and shared limits answer, and it is not draining) and /metrics. */
function healthRoutes(core: Core, draining: () => boolean, figures: () => Metrics): Hono {
  const routes = new Hono();
  routes.get('/healthz', (c) => c.json({ status: 'ok' }));
  routes.get('/readyz', async (c) => {
    // Each part reported apart: a team's Redis down leaves keys without limits working, its database down does not.
    const check = async (where: string, ping: () => Promise<void>) =>
      ping().then(
        () => ({ ok: true, where }),
        (error: unknown) => ({ ok: false, where, error: (error as Error).message }),
      );
    const limits = core.admission.where;
    const [database, redis] = await Promise.all([check(core.store.where, () => core.store.ping()), limits ? check(limits, () => core.admission.ping()) : null]);
    // Redis away: keys without limits are still answered (those with limits are refused with 503), so
    // the instance stays in a load balancer's rotation, "degraded"; every instance shares that Redis.
    const status = draining() ? 'draining' : !database.ok ? 'unready' : redis && !redis.ok ? 'degraded' : 'ready';
    return c.json({ status, database, ...(redis ? { redis } : {}) }, database.ok && !draining() ? 200 : 503);
  });
  routes.get('/metrics', async (c) => {
    const { registry } = figures();
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
  return routes;
}

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

/** The human stage's queue as the database holds it (every instance reports the same figure). */
type QueueFigures = () => Promise<{ pending: number; oldest_pending_seconds: number | null; reviewed_last_hour: number }>;

/** Per watched question set: each question's drift over the last day against the week before, and its items waiting for review. */
type SetFigures = () => Promise<{ set: string; waiting: number; drift: { question: string; drift: number }[] }[]>;

/** How often the per-set figures are worked out again: each reads a day and a week of captures. */
const SET_FIGURES_TTL_MS = 60_000;

/** The monitor's figures of every set a capture rule names, kept for a minute between scrapes. */
function setFigures(core: Core): SetFigures {
  let kept: { at: number; figures: Promise<Awaited<ReturnType<SetFigures>>> } | null = null;
  const read = async () => {
    const ids = await core.captures.watchedSetIds();
    const monitors = await Promise.all(ids.map((id) => core.captures.monitor({ question_set_id: id, window: '24h' }).catch(() => null)));
    return monitors.flatMap((m) =>
      m
        ? [
            {
              set: m.subject.name,
              waiting: m.waiting_review,
              drift: m.questions.flatMap((q) => (q.drift === null ? [] : [{ question: q.question, drift: q.drift }])),
            },
          ]
        : [],
    );
  };
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at > SET_FIGURES_TTL_MS) kept = { at: now, figures: read() };
    return kept.figures;
  };
}

interface MetricSources {
  queue: QueueFigures;
  /** Answers this process gave to watched sets, by set, question and answer. */
  answers: () => { set: string; question: string; answer: string; count: number }[];
  sets: SetFigures;
}

/** This instance's Prometheus registry: the process's default figures and the gateway's own counters. Made when first asked. */
function makeMetrics({ queue, answers, sets }: MetricSources): {
  registry: PromClient.Registry;
  requests: PromClient.Counter;
  latency: PromClient.Histogram;
  refusals: PromClient.Counter;
  answered: PromClient.Counter;
  spend: PromClient.Counter;
} {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = promClient();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'verdict_' });
  // Read from the database at each scrape: the same figure on every instance.
  const queueFigure = (pick: (f: Awaited<ReturnType<QueueFigures>>) => number | null) =>
    async function (this: PromClient.Gauge) {
      const value = await queue().then(pick, () => null);
      this.reset();
      // Labelled, so that "none waits" is no series rather than a made-up 0 seconds.
      if (value !== null) this.set({ queue: 'human' }, value);
    };
  new Gauge({
    name: 'verdict_review_queue_items',
    help: 'Items waiting for a person: requests a cascade\'s human stage sent (queue="human"), and captured items of a watched question set no one has reviewed (queue="captured", set="…")',
    labelNames: ['queue', 'set'],
    registers: [registry],
    async collect() {
      const [pending, perSet] = await Promise.all([
        queue().then(
          (f) => f.pending,
          () => null,
        ),
        sets().catch(() => []),
      ]);
      this.reset();
      if (pending !== null) this.set({ queue: 'human' }, pending);
      for (const s of perSet) this.set({ queue: 'captured', set: s.set }, s.waiting);
    },
  });
  new Counter({
    name: 'verdict_answers_total',
    help: 'Answers given to requests of a question set a capture rule names, by set, question and answer (yes/no, the option, the level, "box"), captured or not',
    labelNames: ['set', 'question', 'answer'],
    registers: [registry],
    collect() {
      this.reset();
      for (const a of answers()) this.inc({ set: a.set, question: a.question, answer: a.answer }, a.count);
    },
  });
  new Gauge({
    name: 'verdict_drift',
    help: "How far a watched set's answers to a question moved over the last day from the week before: yes-rate change for yes/no, population stability index for choices and levels, centre move or area change for boxes",
    labelNames: ['set', 'question'],
    registers: [registry],
    async collect() {
      const perSet = await sets().catch(() => []);
      this.reset();
      for (const s of perSet) for (const q of s.drift) this.set({ set: s.set, question: q.question }, q.drift);
    },
  });
  new Gauge({
    name: 'verdict_review_queue_oldest_seconds',
    help: 'How long the oldest request waiting for a person has waited (absent when none waits)',
    labelNames: ['queue'],
    registers: [registry],
    collect: queueFigure((f) => f.oldest_pending_seconds),
  });
  new Gauge({
    name: 'verdict_reviews_last_hour',
    help: 'Human-stage requests people answered or flagged in the last hour',
    labelNames: ['queue'],
    registers: [registry],
    collect: queueFigure((f) => f.reviewed_last_hour),
  });
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

import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { CatalogFile } from '../../shared/schemas/catalog';
import { Catalog } from './catalog/catalog';
import { contributionOf, loadCatalogFile, saveCatalogFile } from './catalog/catalog-file';
import { systemClock } from './clock';
import { LearnedCapabilities } from './catalog/learned';
import { Router } from './routing/router';
import { Upstreams } from './decisions/upstreams';
import { Listings } from './catalog/listing';
import { DecisionsEngine } from './decisions/engine';
import { ImagePool } from './images/pool';
import { RunStore } from './runs/run-store';
import { RequestLog, REQUEST_LOG_DIR } from './public-api/request-log';
import { OtlpExporter } from './trace/otlp';
import { QuestionSets } from './question-sets/question-sets';
import { CascadePresets } from './cascade-presets/cascade-presets';
import { Runs } from './runs/runs';
import { BoxItems } from './boxes/box-items';
import { BoxReview } from './boxes/box-review';
import { Datasets } from './datasets/datasets';
import { wireEvaluations } from './evaluations/wire';
import { CostModel } from './cost/cost-model';
import { createServiceSelector } from './service';
import { ApiKeys } from './keys/api-keys';
import { SpendLedger } from './keys/spend-ledger';
import { LocalAdmission } from './keys/admission/local';
import { SharedKeyAdmission } from './keys/admission/shared';
import { FallbackAdmission } from './keys/admission/fallback';
import { KeyManagement } from './keys/key-management';
import { AuditLog } from './audit/audit-log';
import { UiSessions } from './audit/ui-sessions';
import { ProviderKeys } from './keys/provider-keys';
import { silentLogger } from './logger';
import type { Core, CoreOptions } from './core';
import { EndpointMetrics } from './metrics/endpoint-metrics';
import { createHandlers } from './operations';
import { UpstreamHttp } from './providers/http';
import { HealthRegistry } from './routing/health';
import { SandboxLifecycle } from './sandbox/lifecycle';
import { CatalogRefresh } from './catalog/refresh';
import { SettingsStore } from './settings/settings';
import { isPostgresUrl, openStorage } from './store/open';
import { RedisAdmission } from './store/redis/admission';
import type { Presence } from './store/ports';

export { DATABASE_FILE } from './store/open';
export const CATALOG_FILE = 'catalog.json';
export { REQUEST_LOG_DIR };

/** An instance beats every 10 s; one not heard from for 30 s is gone. */
const BEAT_MS = 10_000;
const GONE_AFTER_MS = 30_000;

/** This instance among a team's: it beats, and knows how many are alive (itself at least) as of its last beat. */
async function startPresence(presence: Presence, instance: string): Promise<{ live: () => number; leave: () => Promise<void> }> {
  let live = 1;
  const beat = async () => {
    await presence.beat(instance);
    live = Math.max(1, await presence.live(GONE_AFTER_MS));
  };
  await beat();
  // Missed beats (the database away) leave the last count.
  const timer = setInterval(() => void beat().catch(() => undefined), BEAT_MS);
  timer.unref();
  return {
    live: () => live,
    leave: async () => {
      clearInterval(timer);
      await presence.leave(instance);
    },
  };
}

export async function createCore(options: CoreOptions): Promise<Core> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const storage = await openStorage({ dataDir: options.dataDir, database: options.database, connections: options.databaseConnections });
  const catalog = new Catalog();
  const settings = await SettingsStore.open(storage.settings);
  const providerKeys = new ProviderKeys(options.secrets, storage.providerKeyDates, clock, (slug) =>
    catalog.hasProvider(slug) ? catalog.provider(slug).base_url : undefined,
  );
  // This instance among a team's (the same one when it restarts): its run leases and its endpoint figures.
  const instance = `${hostname()} ${options.dataDir}`;
  const metrics = await EndpointMetrics.open(storage.metrics, clock, instance);
  const health = new HealthRegistry(clock);
  // A provider's 429 or an opened breaker seen by one of a team's instances cools the endpoint on all.
  if (storage.health) await health.shareWith(storage.health);
  const http = new UpstreamHttp(clock);
  // Decoding, rotating and re-encoding images, for the engine and the simulated fleet, off this thread.
  const images = new ImagePool();
  const learned = await LearnedCapabilities.open(storage.refusals, clock);
  const router = new Router({
    catalog,
    metrics,
    health,
    clock,
    account: () => settings.get().routing,
    ...(options.random ? { random: options.random } : {}),
  });
  const upstreams = new Upstreams({ http, providerKeys, clock, learned, accountOf: (slug) => settings.get().provider_accounts[slug] });
  const listings = new Listings({ catalog, metrics, health });
  const catalogPath = join(options.dataDir, CATALOG_FILE);
  const known = () => ({ providers: new Set(catalog.listProviders().map((p) => p.slug)), models: new Set(catalog.listModels().map((m) => m.id)) });
  const loaded = await loadCatalogFile(catalogPath, known().providers, known().models);
  if (loaded.problem) logger.warn({ problem: loaded.problem }, 'catalog file not loaded');
  catalog.setSource('file', contributionOf(loaded.file));

  let closed = false;
  const sandbox = new SandboxLifecycle({ catalog, settings, providerKeys, images, options: options.sandbox });
  const costs = new CostModel({
    catalog,
    router,
    upstreams,
    scripted: (endpoint) => (endpoint.provider.simulated ? (sandbox.current()?.fare(endpoint.provider.slug) ?? null) : null),
  });
  const refreshSandbox = () => sandbox.refresh();

  const decisions = new DecisionsEngine({ catalog, router, upstreams, images, timeouts: options.timeouts });
  const tracer = new OtlpExporter(() => settings.get().trace_destinations, logger, options.version, { collector: options.otlp, instance });
  const services = createServiceSelector({ settings, listings, decisions, secrets: options.secrets });
  const runStore = new RunStore(storage.runs);
  const runs = new Runs({ storage: storage.runs, clock, log: runStore, service: () => services.current() });
  const datasets = await Datasets.open(storage.datasets, clock);
  const evaluations = wireEvaluations({
    storage,
    // One of a team's instances sends a run at a time; this one restarted is the same one.
    owner: instance,
    // On a team's Postgres every live instance sends a share of each running run.
    team: isPostgresUrl(options.database) ? { claimLeaseMs: options.claimLeaseMs || undefined } : undefined,
    clock,
    logger,
    datasets,
    // Built in, the engine's attempts are kept with each result; a remote gateway reports none.
    decide: async (request, decideOptions, cascade) => {
      // A cascade variant: both stages billed to the run and held against its budget, the answering stage's answers stored.
      const stages = cascade ? { then: cascade.model, when: cascade.when, fallbacks: [] } : undefined;
      const answered = await services.current().decide(request, { ...decideOptions, ...(stages ? { stages } : {}) });
      const attempts = answered.route?.attempts.map((a) => ({ endpoint: a.endpoint.id, outcome: a.outcome, message: a.message, total_ms: a.totalMs })) ?? null;
      return { response: answered.response, methods: answered.methods, attempts };
    },
  });
  const discovery = new CatalogRefresh({ catalog, http, clock, providerKeys, after: refreshSandbox });
  const refreshDiscovery = () => discovery.refresh();

  const requestLog = await RequestLog.open({
    dir: join(options.dataDir, REQUEST_LOG_DIR),
    legacy: storage.legacySpend,
    clock,
    logger,
    mode: options.requestLog ?? 'write',
  });
  // After the request log: opening it adds spend an earlier version left in it.
  // A team's instances admit keys with limits on one Redis; a hold outlives the longest request.
  const shared = options.redis
    ? await RedisAdmission.open(options.redis, {
        leaseMs: (options.timeouts?.deadlineMs ?? 300_000) + 60_000,
        ...(options.redisTimeoutMs ? { commandTimeoutMs: options.redisTimeoutMs } : {}),
      })
    : null;
  if (shared && shared.settings.appendOnly === false)
    logger.warn(
      { redis: shared.where },
      'Redis keeps no append-only file (appendonly no): restarted, it forgets the holds of requests in flight, which may then overspend a credit limit; spend itself is rebuilt from the ledger',
    );
  // A key revoked or re-limited here is read again by every instance's next request on it.
  const apiKeys = await ApiKeys.open(storage.keys, clock, shared ? async (id) => void (await shared.bumpGeneration(id).catch(() => undefined)) : undefined);
  const spend = new SpendLedger(storage.keys, clock, (id) => apiKeys.row(id)?.spent);
  // Commands (keys, eval) open the core too, without taking up runs: they are not counted as live instances.
  const presence = storage.presence && options.resumeEvaluations !== false ? await startPresence(storage.presence, instance) : null;
  // Who is admitted: this process's limits, a team's on Redis, or Redis with this instance's share while it is away.
  const admission = !shared
    ? await LocalAdmission.open(apiKeys, spend, storage.keys, clock)
    : presence && options.redisFallback === 'local'
      ? new FallbackAdmission(new SharedKeyAdmission(apiKeys, storage.keys, shared), presence.live, () => clock.now())
      : new SharedKeyAdmission(apiKeys, storage.keys, shared);
  const audit = new AuditLog(storage.audit, clock);
  // Metadata of API requests is kept for 30 days (their cost stays in the keys' spend).
  await runStore.forgetApiRecordsBefore(clock.now() - 30 * 86_400_000);
  const partial = {
    options,
    clock,
    logger,
    storage,
    catalog,
    apiKeys,
    spend,
    admission,
    audit,
    keyManagement: new KeyManagement(apiKeys, audit),
    uiSessions: new UiSessions(storage.sessions, apiKeys, clock),
    providerKeys,
    settings,
    metrics,
    health,
    http,
    router,
    upstreams,
    listings,
    costs,
    decisions,
    tracer,
    service: () => services.current(),
    runStore,
    requestLog,
    questionSets: new QuestionSets(storage.questionSets, clock),
    cascadePresets: new CascadePresets(storage.cascadePresets, clock),
    boxItems: new BoxItems(storage.boxes, clock),
    boxReview: new BoxReview(storage.boxes, clock, datasets, evaluations.results),
    runs,
    datasets,
    evalRuns: evaluations.runs,
    evalResults: evaluations.results,
    evalReports: evaluations.reports,
    calibrations: evaluations.calibrations,
    sandbox: () => sandbox.current(),
    catalogProblem: () => loaded.problem,
    refreshSandbox,
    refreshDiscovery,
    discoveryResults: () => discovery.last(),
    replaceCatalogFile: async (file: CatalogFile) => {
      await saveCatalogFile(catalogPath, file);
      loaded.problem = null;
      catalog.setSource('file', contributionOf(file));
      await refreshSandbox();
    },
    close: async () => {
      closed = true;
      discovery.close();
      // Its claims given back before the storage closes: the other instances take them at once.
      await evaluations.close();
      await sandbox.close();
      await http.close();
      await images.close();
      await services.close();
      await tracer.close();
      // Each part closes even when one before it cannot write (its database down): what can be kept is.
      const attempt = (what: string, step: () => Promise<void>) => step().catch((error: unknown) => logger.error({ err: error }, `${what} not closed cleanly`));
      await attempt('presence', async () => presence?.leave());
      await attempt('endpoint figures', () => metrics.close());
      await attempt('request log', () => requestLog.close());
      await attempt('storage', () => storage.close());
      await attempt('shared admission', async () => shared?.close());
    },
  };
  const core: Core = { ...partial, handlers: createHandlers(partial) };
  await refreshSandbox();
  const resumeEvaluations = () => {
    if (options.resumeEvaluations !== false && !closed)
      void evaluations.runs.resumeInterrupted().catch((error: unknown) => logger.error({ err: error }, 'interrupted evaluation runs not resumed'));
  };
  // Evaluation runs that were running when the process stopped go on with the items not yet
  // stored, once the models discovery finds are known.
  if (options.discovery !== false) {
    // In the background: a provider that is slow to list its models must not delay the start.
    refreshDiscovery()
      .catch((error: unknown) => logger.warn({ err: error }, 'discovery failed'))
      .finally(() => resumeEvaluations());
  } else resumeEvaluations();
  return core;
}

import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { CatalogFile } from '../../shared/schemas/catalog';
import { wireBoxes } from './boxes/wire';
import { wireCaptures } from './captures/wire';
import { wireReviews } from './reviews/wire';
import { CascadePresets } from './cascade-presets/cascade-presets';
import { Catalog } from './catalog/catalog';
import { Listings } from './catalog/listing';
import { CatalogRefresh } from './catalog/refresh';
import { openCatalogFile } from './catalog/wire';
import { systemClock } from './clock';
import type { Core, CoreInternals, CoreOptions } from './core';
import { datasetBackup } from './datasets/dataset-backup';
import { Datasets } from './datasets/datasets';
import { wireCosts } from './cost/wire';
import { DecisionsEngine } from './decisions/engine';
import { wireUpstreams } from './decisions/wire';
import { decideThrough, wireEvaluations } from './evaluations/wire';
import { ProviderKeys } from './keys/provider-keys';
import { wireKeys } from './keys/wire';
import { closeCore, startCore } from './lifecycle';
import { silentLogger } from './logger';
import { createHandlers } from './operations';
import { RequestLog, REQUEST_LOG_DIR } from './public-api/request-log';
import { QuestionSets } from './question-sets/question-sets';
import { wireRouting } from './routing/wire';
import { RunStore } from './runs/run-store';
import { Runs } from './runs/runs';
import { SandboxLifecycle } from './sandbox/lifecycle';
import { createServiceSelector } from './service';
import { SettingsStore } from './settings/settings';
import { isPostgresUrl, openStorage } from './store/open';
import { OtlpExporter } from './trace/otlp';

export { DATABASE_FILE } from './store/open';
export { CATALOG_FILE } from './catalog/wire';
export { REQUEST_LOG_DIR };

/** The composition root: each domain wired in the order what it uses is made, then the core started. */
export async function createCore(options: CoreOptions): Promise<Core> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const storage = await openStorage({ dataDir: options.dataDir, database: options.database, connections: options.databaseConnections });
  const catalog = new Catalog();
  const settings = await SettingsStore.open(storage.settings);
  const baseUrl = (slug: string) => (catalog.hasProvider(slug) ? catalog.provider(slug).base_url : undefined);
  const providerKeys = new ProviderKeys(options.secrets, storage.providerKeyDates, clock, baseUrl);
  // This instance among a team's (the same one when it restarts): its run leases and its endpoint figures.
  const instance = `${hostname()} ${options.dataDir}`;
  const routing = await wireRouting({ storage, clock, catalog, settings, instance, random: options.random });
  const { images, ...reaching } = await wireUpstreams({ storage, clock, providerKeys, accountOf: (slug) => settings.get().provider_accounts[slug] });
  const listings = new Listings({ catalog, metrics: routing.metrics, health: routing.health });
  const catalogFile = await openCatalogFile({ dataDir: options.dataDir, catalog, logger });
  const sandbox = new SandboxLifecycle({ catalog, settings, providerKeys, images, options: options.sandbox });
  const costs = wireCosts({ catalog, router: routing.router, upstreams: reaching.upstreams, sandbox });
  const decisions = new DecisionsEngine({ catalog, router: routing.router, upstreams: reaching.upstreams, images, timeouts: options.timeouts });
  const tracer = new OtlpExporter(() => settings.get().trace_destinations, logger, options.version, { collector: options.otlp, instance });
  const services = createServiceSelector({ settings, listings, decisions, secrets: options.secrets });
  const service = () => services.current();
  const runStore = new RunStore(storage.runs);
  const runs = new Runs({ storage: storage.runs, clock, log: runStore, service });
  const datasets = await Datasets.open(storage.datasets, clock);
  // One of a team's instances sends a run at a time (this one restarted is the same one); on a team's Postgres each live one sends a share of every running run.
  const team = isPostgresUrl(options.database) ? { claimLeaseMs: options.claimLeaseMs || undefined } : undefined;
  const evaluations = wireEvaluations({ storage, owner: instance, team, clock, logger, datasets, decide: decideThrough(service) });
  const refreshSandbox = () => sandbox.refresh();
  const discovery = new CatalogRefresh({ catalog, http: reaching.http, clock, providerKeys, after: refreshSandbox });
  const refreshDiscovery = () => discovery.refresh();
  const logDir = join(options.dataDir, REQUEST_LOG_DIR);
  const requestLog = await RequestLog.open({ dir: logDir, legacy: storage.legacySpend, clock, logger, mode: options.requestLog ?? 'write' });
  // After the request log: opening it adds spend an earlier version left in it.
  const keys = await wireKeys({ storage, clock, logger, instance, options });
  // Metadata of API requests is kept for 30 days (their cost stays in the keys' spend).
  await runStore.forgetApiRecordsBefore(clock.now() - 30 * 86_400_000);
  const boxes = wireBoxes({ storage, clock, datasets, results: evaluations.results });
  const questionSets = new QuestionSets(storage.questionSets, clock);
  const captures = await wireCaptures({ storage, clock, logger, datasets, questionSets, ...keys.parts, catalog, options });
  const reviewing = wireReviews({ storage, clock, logger, datasets, questionSets, captures: captures.captures, settings, options });
  let closed = false;
  const parts = {
    options,
    clock,
    logger,
    store: { where: storage.where, ping: () => storage.ping() },
    // With the domain objects: held, though Core does not name them (CoreInternals).
    storage,
    ...{ catalog, listings, providerKeys, settings, costs, decisions, tracer, service, runStore, requestLog, runs, datasets },
    // The parts each domain's wiring made, as they are named in Core.
    ...{ ...routing, ...reaching, ...keys.parts, ...boxes },
    questionSets,
    captures: captures.captures,
    captureTap: captures.tap,
    ...reviewing,
    cascadePresets: new CascadePresets(storage.cascadePresets, clock),
    evalRuns: evaluations.runs,
    evalResults: evaluations.results,
    evalReports: evaluations.reports,
    calibrations: evaluations.calibrations,
    sandbox: () => sandbox.current(),
    catalogProblem: () => catalogFile.problem(),
    refreshSandbox,
    refreshDiscovery,
    discoveryResults: () => discovery.last(),
    replaceCatalogFile: async (file: CatalogFile) => {
      await catalogFile.replace(file);
      await refreshSandbox();
    },
    close: async () => {
      closed = true;
      await closeCore({ logger, discovery, evaluations, sandbox, reaching, images, services, tracer, keys, captures, routing, requestLog, storage });
    },
  };
  const core: Core & CoreInternals = { ...parts, handlers: createHandlers({ ...parts, datasetBackup: datasetBackup(storage.boxes, clock, datasets) }) };
  await startCore({ logger, options, refreshSandbox, refreshDiscovery, evalRuns: evaluations.runs, closed: () => closed });
  return core;
}

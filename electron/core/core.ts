import type { PgOptions } from './store/postgres/database';
import type { OtlpCollector } from './trace/otlp';
/**
 * What the gateway core is, for everything built on it (the hosts, dispatch, the routes): its parts
 * and its options. Made by the composition root, `create-core.ts`, which only the hosts import.
 */
import type { CatalogFile } from '../../shared/schemas/catalog';
import type { ImageFetchOptions } from './decisions/image-fetch';
import type { KeyParts } from './keys/wire';
import type { Catalog } from './catalog/catalog';
import type { DiscoveryResult } from './catalog/discovery';
import type { Clock } from './clock';
import type { Router } from './routing/router';
import type { CostModel } from './cost/cost-model';
import type { Upstreams } from './decisions/upstreams';
import type { Listings } from './catalog/listing';
import type { DecisionsEngine } from './decisions/engine';
import type { RunStore } from './runs/run-store';
import type { RequestLog } from './public-api/request-log';
import type { OtlpExporter } from './trace/otlp';
import type { QuestionSets } from './question-sets/question-sets';
import type { CascadePresets } from './cascade-presets/cascade-presets';
import type { Captures } from './captures/captures';
import type { CaptureTap } from './captures/tap';
import type { Reviews } from './reviews/reviews';
import type { HumanStage } from './reviews/human-stage';
import type { Runs } from './runs/runs';
import type { BoxItems } from './boxes/box-items';
import type { BoxReview } from './boxes/box-review';
import type { Datasets } from './datasets/datasets';
import type { EvalRunBook } from './evaluations/runs/run-book';
import type { EvalResults } from './evaluations/results/eval-results';
import type { EvalReports } from './evaluations/reports/eval-reports';
import type { Calibrations } from './evaluations/calibration/calibrations';
import type { GatewayService } from './service';
import type { ProviderKeys } from './keys/provider-keys';
import type { SecretStore } from './keys/secret-store';
import type { Logger } from './logger';
import type { EndpointMetrics } from './metrics/endpoint-metrics';
import type { Handlers } from './operations';
import type { UpstreamHttp } from './providers/http';
import type { HealthRegistry } from './routing/health';
import type { FleetOptions, SandboxFleet } from './sandbox/fleet';
import type { Storage } from './store/ports';
import type { SettingsStore } from './settings/settings';

export interface CoreOptions {
  dataDir: string;
  secrets: SecretStore;
  host: 'desktop' | 'browser';
  version: string;
  clock?: Clock;
  logger?: Logger;
  /** How the simulated providers behave (tests pin a seed or silence failures). */
  sandbox?: FleetOptions;
  random?: () => number;
  /** Ask providers for their model listings at start (default true). */
  discovery?: boolean;
  /** Total time for one Decisions request and for each upstream attempt in it (ms). */
  timeouts?: { deadlineMs: number; attemptMs: number };
  /**
   * 'write' (default) for the process that serves requests; 'read' for key management next to a
   * running server, which counts the request log's spend but never writes it.
   */
  requestLog?: 'write' | 'read';
  /** Go on with evaluation runs a stopped process left running (default true; the eval command runs only its own). */
  resumeEvaluations?: boolean;
  /** How image URLs are fetched when the settings allow it (tests trust their own server's certificate). */
  imageFetch?: ImageFetchOptions;
  /**
   * A `postgres://` URL: every domain's data on that server, shared by the instances that name it.
   * Left out, the data is in the SQLite file of the data directory.
   */
  database?: string | undefined;
  /**
   * A `redis://` URL: rate limits and credit of keys with limits are admitted there, shared by every
   * instance (a team's server, with `database`). Left out, this process counts them itself.
   */
  redis?: string | undefined;
  /** How long a Redis command may take before the request that needed it is refused (default 150 ms). */
  redisTimeoutMs?: number;
  /**
   * With Redis away: `refuse` requests on keys with limits (the default), or `local`: keep each rate
   * limit here, divided by the live instances (credit limits are never kept apart: still refused).
   */
  redisFallback?: 'refuse' | 'local' | undefined;
  /** On a team's database: how long an evaluation item's claim lasts unrenewed (default 20 s), so how soon a dead instance's items are sent by others. */
  claimLeaseMs?: number | undefined;
  /** With `database`: how many connections this process opens, and where its listener connects. */
  databaseConnections?: PgOptions | undefined;
  /** The operator's OTLP collector for traces (beside the settings' destinations). */
  otlp?: OtlpCollector | undefined;
}

/**
 * The gateway core as the hosts hold it: one instance per host process, with every dependency passed
 * in; the application's services, not the storage nor the domain objects under them (CoreInternals).
 */
export interface Core extends KeyParts {
  readonly options: Readonly<CoreOptions>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where every domain's data is (the SQLite file or the PostgreSQL server), for the banner and the readiness check. */
  readonly store: Pick<Storage, 'where' | 'ping'>;
  readonly catalog: Catalog;
  readonly providerKeys: ProviderKeys;
  readonly settings: SettingsStore;
  /** The endpoint listings and the ZDR preview, with figures computed now. */
  readonly listings: Listings;
  /** Public API calls (metadata only, one JSON line each). */
  readonly requestLog: RequestLog;
  readonly tracer: OtlpExporter;
  /** Named cascades (a second model and when to ask it): `cascadePresets.presetByName(name)` resolves one. */
  readonly cascadePresets: CascadePresets;
  /** Capture rules: which live requests become dataset items, with their answers as predictions. */
  readonly captures: Captures;
  /** The request path's side of the captures: each answered public call is offered to it. */
  readonly captureTap: CaptureTap;
  /** People answering datasets' open items, one reviewer an item at a time. */
  readonly reviews: Reviews;
  /** A cascade's `human` stage: requests queued for people, and where each stands. */
  readonly humanStage: HumanStage;
  /** Labelled datasets and evaluation runs over them. */
  readonly datasets: Datasets;
  /** Evaluation runs: started, paused, resumed, cancelled, sent again in part (evaluations/runs/). */
  readonly evalRuns: EvalRunBook;
  /** Their results, read: answers, the matrix, distributions, exports (evaluations/results/). */
  readonly evalResults: EvalResults;
  /** A run's report, cascade curve and comparison with a baseline (evaluations/reports/). */
  readonly evalReports: EvalReports;
  /** The three public operations, here or at a remote gateway as the settings say. */
  service(): GatewayService;
  readonly handlers: Handlers;
  /** Reads every enabled provider's model listing into the catalog. */
  refreshDiscovery(): Promise<DiscoveryResult[]>;
  /** Validates, saves and applies a new user catalog file. */
  replaceCatalogFile(file: CatalogFile): Promise<void>;
  close(): Promise<void>;
}

/**
 * The domain objects and the storage under the core's services, which the handlers are made from.
 * The object `createCore` makes holds them; tests look at them (test-support/core-internals.d.ts
 * names them on Core for the tests alone), other code that is not a host through
 * test-support/internals-of.ts.
 */
export interface CoreInternals {
  /** Every domain's storage (SQLite or PostgreSQL); domains reach it through their own objects. */
  readonly storage: Storage;
  readonly metrics: EndpointMetrics;
  readonly health: HealthRegistry;
  readonly http: UpstreamHttp;
  /** Plans a request's endpoints and runs the plan (routing/router.ts). */
  readonly router: Router;
  /** Reaches one endpoint: chat calls, native decisions, what it accepts now (decisions/upstreams.ts). */
  readonly upstreams: Upstreams;
  /** What requests will cost as routing sends them: every estimate and expected price asks it (cost/cost-model.ts). */
  readonly costs: CostModel;
  readonly decisions: DecisionsEngine;
  /** Runs from the inspector (content kept, in SQLite). */
  readonly runStore: RunStore;
  readonly questionSets: QuestionSets;
  readonly runs: Runs;
  readonly boxItems: BoxItems;
  /** Box review over datasets of images. */
  readonly boxReview: BoxReview;
  /** Temperatures fitted on a run, saved, listed and deleted (evaluations/calibration/). */
  readonly calibrations: Calibrations;
  /** The simulated fleet while it is active. */
  sandbox(): SandboxFleet | null;
  catalogProblem(): string | null;
  /** Turns the simulated fleet on or off as the settings and configured providers say. */
  refreshSandbox(): Promise<void>;
  discoveryResults(): ReadonlyMap<string, DiscoveryResult>;
}

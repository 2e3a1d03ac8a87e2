import { randomUUID } from 'node:crypto';
import { endpointSlug } from '../catalog/catalog';
import { EMPTY_CATALOG_FILE, validateCatalogFile } from '../catalog/catalog-file';
import type { CatalogEndpoint } from '../catalog/types';
import { singleEndpointPlan } from '../routing/plan';
import { callCost } from '../decisions/usage';
import type { UpstreamUsage } from '../providers/types';
import { methodFor } from '../decisions/ask';
import type { Handlers } from './index';
import type { Catalog } from '../catalog/catalog';
import type { DiscoveryResult } from '../catalog/discovery';
import type { CostModel } from '../cost/cost-model';
import type { Upstreams } from '../decisions/upstreams';
import type { EvalResults } from '../evaluations/results/eval-results';
import type { ProviderKeys } from '../keys/provider-keys';
import type { EndpointMetrics } from '../metrics/endpoint-metrics';
import type { Router } from '../routing/router';
import type { RunStore } from '../runs/run-store';
import type { GatewayService } from '../service';
import type { CatalogFile } from '../../../shared/schemas/catalog';
import { trafficProfile } from '../runs/traffic';
import { zdrCosts } from '../cost/zdr-cost';
import { modelPace } from '../evaluations/estimate/pace';
import { DEFAULT_CONCURRENCY } from '../../../shared/contract/eval-operations';
import { probeCost } from '../cost/probe-cost';
import { PROBE_CHAT_TEXT, PROBE_NEEDS, PROBE_QUESTION, PROBE_STATE } from '../catalog/probe-request';

type CatalogOps = Pick<
  Handlers,
  | 'models.list'
  | 'models.endpoints'
  | 'endpoints.details'
  | 'endpoints.zdr'
  | 'usage.traffic'
  | 'usage.zdr_cost'
  | 'endpoints.probe'
  | 'endpoints.probeCost'
  | 'endpoints.uptime'
  | 'routing.plan'
  | 'catalog.export'
  | 'catalog.import'
  | 'catalog.discover'
>;

const attemptView = (endpoint: CatalogEndpoint, reason: string) => ({
  provider: endpoint.provider.slug,
  provider_name: endpoint.provider.name,
  tag: endpointSlug(endpoint),
  simulated: endpoint.provider.simulated,
  reason,
});

/** The user's catalog file as it is applied (what `catalog.json` holds). */
export function exportCatalogFile(core: { readonly catalog: Catalog }): CatalogFile {
  const source = core.catalog.source('file');
  if (!source) return EMPTY_CATALOG_FILE;
  return {
    version: 1,
    providers: (source.providers ?? []).map(({ source: _s, simulated: _sim, ...p }) => p),
    models: (source.models ?? []).map(({ source: _s, ...m }) => m),
    endpoints: (source.endpoints ?? []).map((e) => ({ ...e, supported_parameters: [...e.supported_parameters] })),
  };
}

/** What the catalog's operations use: the catalog and its file, endpoint figures, routing and the upstreams, and the traffic that prices the ZDR comparison. */
export interface CatalogDeps {
  readonly catalog: Catalog;
  readonly providerKeys: ProviderKeys;
  readonly metrics: EndpointMetrics;
  readonly router: Router;
  readonly upstreams: Upstreams;
  readonly costs: CostModel;
  readonly runStore: RunStore;
  readonly evalResults: EvalResults;
  service(): GatewayService;
  refreshDiscovery(): Promise<DiscoveryResult[]>;
  replaceCatalogFile(file: CatalogFile): Promise<void>;
}

export function catalogHandlers(core: CatalogDeps): CatalogOps {
  return {
    'models.list': () => listModels(core),
    'models.endpoints': async ({ model }) => core.service().listing(model),
    'usage.traffic': async () => trafficProfile(core.runStore, core.evalResults),
    'usage.zdr_cost': async ({ typed }) => {
      const traffic = await trafficProfile(core.runStore, core.evalResults);
      // Each model's requests as its evaluation runs sent them, where it has answered items.
      const paces = new Map(
        await Promise.all(traffic.models.map(async (m) => [m.model, await modelPace(core.evalResults, m.model, DEFAULT_CONCURRENCY, 1)] as const)),
      );
      return zdrCosts(core, traffic, typed, paces);
    },
    'endpoints.details': async ({ model }) => endpointDetails(core, model),
    'endpoints.zdr': async () => ({ data: await core.service().zdr() }),
    'endpoints.probe': async ({ model, calls }) => probeEndpoints(core, model, calls),
    'endpoints.probeCost': async ({ model, calls }) => probeCost(core, model, calls),
    'endpoints.uptime': async ({ model, hours }) => uptimeHistory(core, model, hours),
    'routing.plan': async ({ model, preferences }) => {
      const plan = core.router.plan(model, preferences ?? undefined, { ...PROBE_NEEDS, parameters: ['logprobs', 'top_logprobs'], completionTokens: 1 });
      return {
        strategy: plan.strategy,
        attempts: plan.attempts.map((a) => attemptView(a.endpoint, a.reason)),
        excluded: plan.excluded.map((e) => attemptView(e.endpoint, e.reason)),
      };
    },
    'catalog.discover': async () =>
      (await core.refreshDiscovery()).map((r) => ({ provider: r.provider, models: r.models, error: r.error, at: new Date(r.at).toISOString() })),
    'catalog.export': async () => exportCatalogFile(core),
    'catalog.import': async ({ catalog }) => importCatalog(core, catalog),
  };
}

/** Every model with how it answers and how many of its endpoints can be called now; callable ones first. */
async function listModels(core: CatalogDeps) {
  // A provider's key state is read once, however many of its endpoints there are.
  const keyed = new Map<string, Promise<boolean>>();
  const callable = (e: CatalogEndpoint) => {
    if (e.provider.local || e.provider.simulated) return Promise.resolve(true);
    let known = keyed.get(e.provider.slug);
    if (!known) keyed.set(e.provider.slug, (known = core.providerKeys.state(e.provider.slug).then((k) => k.key_set)));
    return known;
  };
  const models = await Promise.all(
    core.catalog.listModels().map(async (m) => {
      const endpoints = core.catalog.endpointsOf(m.id);
      const native = endpoints.filter((e) => e.host !== null).length;
      const answering = native === 0 ? 'method' : native === endpoints.length ? 'native' : 'both';
      const callableEndpoints = (await Promise.all(endpoints.map(callable))).filter(Boolean).length;
      return { ...m, answering, callable_endpoints: callableEndpoints } as const;
    }),
  );
  // Models that can be asked now come first (a fresh machine's first pick works); the order is otherwise kept.
  return [...models.filter((m) => m.callable_endpoints > 0), ...models.filter((m) => m.callable_endpoints === 0)];
}

/** Each endpoint of a model with its prices, data policy, measured attempts, capabilities and what it refused. */
async function endpointDetails(core: CatalogDeps, model: string) {
  core.catalog.model(model);
  return core.catalog.endpointsOf(model).map((e) => {
    const figures = core.metrics.figures(e.id);
    return {
      tag: endpointSlug(e),
      provider_slug: e.provider.slug,
      simulated: e.provider.simulated,
      zdr: e.provider.data_policy.zdr,
      collects_data: e.provider.data_policy.collects_data,
      prompt_price: e.prices.prompt,
      completion_price: e.prices.completion,
      context_length: e.contextLength,
      attempts_5m: figures.attempts5m,
      attempts_30m: figures.attempts30m,
      attempts_1d: figures.attempts1d,
      measured_since: ((since) => (since === null ? null : new Date(since).toISOString()))(core.metrics.measuredSince(e.id)),
      capabilities: capabilityView(e, core.upstreams),
      host: hostView(e),
      sources: e.sources,
      refused: core.upstreams.refusals(e),
    };
  });
}

/** Measure now: `calls` real calls to each endpoint of a model (the shortest request it takes), side by side; what failed and why. */
async function probeEndpoints(core: CatalogDeps, model: string, calls: number) {
  let attempts = 0;
  let failures = 0;
  // What the answered calls cost, priced as any request is charged (decisions/usage.ts, on cost/price.ts); null once a price is unknown.
  const spent: { usd: number | null } = { usd: 0 };
  const billed = (endpoint: CatalogEndpoint, usage: UpstreamUsage) => {
    const cost = callCost(endpoint, usage);
    spent.usd = spent.usd === null || cost === null ? null : spent.usd + cost;
  };
  // The last reason each endpoint could not be measured, to show beside it.
  const failed = new Map<string, { tag: string; provider_name: string; reason: string }>();
  // Endpoints are measured side by side; each one's calls go one after another.
  await Promise.all(
    core.catalog.endpointsOf(model).map(async (endpoint) => {
      for (let i = 0; i < calls; i += 1) {
        const plan = singleEndpointPlan(endpoint, 'probe');
        attempts += 1;
        try {
          await core.router.run(
            plan,
            async (_a, signal) => {
              // A host that answers Decisions is measured with the shortest Decisions request: one yes/no question.
              if (endpoint.host) {
                const result = await core.upstreams.decide(
                  endpoint,
                  { state: PROBE_STATE, parts: [{ type: 'text', text: PROBE_STATE }], questions: PROBE_QUESTION, assets: [] },
                  signal,
                );
                billed(endpoint, result.usage);
                return { value: null, usage: result.usage, timings: result.timings };
              }
              const result = await core.upstreams.call(
                endpoint,
                { messages: [{ role: 'user', content: [{ type: 'text', text: PROBE_CHAT_TEXT }] }], maxTokens: PROBE_NEEDS.completionTokens },
                signal,
              );
              billed(endpoint, result.usage);
              return { value: null, usage: result.usage, timings: result.timings };
            },
            { requestId: `probe-${randomUUID()}`, deadlineMs: 30_000, attemptTimeoutMs: 30_000 },
          );
        } catch (error) {
          failures += 1;
          failed.set(endpoint.id, {
            tag: endpointSlug(endpoint),
            provider_name: endpoint.provider.name,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }),
  );
  return { attempts, failures, failed: [...failed.values()], spent_usd: spent.usd === null ? null : Number(spent.usd.toPrecision(12)) };
}

/** Each endpoint's attempts, uptime, time to first token and throughput over the last `hours`, a point a minute (five for longer spans). */
async function uptimeHistory(core: CatalogDeps, model: string, hours: number) {
  core.catalog.model(model);
  const step = hours <= 1 ? 1 : 5;
  return core.catalog.endpointsOf(model).map((e) => ({
    tag: endpointSlug(e),
    provider_name: e.provider.name,
    points: core.metrics.history(e.id, hours * 60, step).map((p) => ({
      at: new Date(p.at).toISOString(),
      attempts: p.attempts,
      // No attempts in a slot: no figure, not 100%.
      uptime: p.attempts === 0 ? null : Math.round((10_000 * (p.attempts - p.faults)) / p.attempts) / 100,
      ttft_p50: p.latencyP50,
      throughput_p50: p.throughputP50,
    })),
  }));
}

/** The user's catalog file, checked against what is built in, replacing the one before. */
async function importCatalog(core: CatalogDeps, catalog: unknown) {
  const file = checkedCatalogFile(core.catalog, catalog);
  await core.replaceCatalogFile(file);
  return { providers: file.providers.length, models: file.models.length, endpoints: file.endpoints.length };
}

/** A user's catalog file, checked: it may add providers and models, never redefine a built-in one. */
export function checkedCatalogFile(catalog: Catalog, file: unknown): CatalogFile {
  const builtIn = catalog.listProviders().filter((p) => p.source !== 'file');
  return validateCatalogFile(
    file,
    new Set(builtIn.map((p) => p.slug)),
    new Set(
      catalog
        .listModels()
        .filter((m) => catalog.model(m.id).source !== 'file')
        .map((m) => m.id),
    ),
  );
}

/** What a native host takes, from its row. */
function hostView(endpoint: CatalogEndpoint) {
  const host = endpoint.host;
  if (!host) return null;
  const { limits } = host;
  return {
    wire: endpoint.wire,
    path: host.path.replace('{model}', endpoint.upstreamModel),
    question_types: [...host.questionTypes],
    images: host.images,
    limits: {
      questions: limits.questions,
      options: [limits.minOptions, limits.maxOptions] as [number, number | null],
      levels: [limits.minLevels, limits.maxLevels] as [number, number | null],
      images: limits.images,
      context_tokens: limits.contextTokens,
    },
    rounding_decimals: host.rounding?.probabilityDecimals ?? null,
    output_billed: host.outputBilled,
    gaps: host.gaps ?? null,
    source: host.source,
  };
}

/** How requests to an endpoint are built now, in the words of its row and what it refused. */
function capabilityView(endpoint: CatalogEndpoint, upstreams: Upstreams) {
  const caps = upstreams.capabilities(endpoint);
  const method = methodFor(endpoint, upstreams);
  return {
    method: method === 'box' ? 'verbalized' : method,
    token_limit: endpoint.wire === 'gemini' ? 'maxOutputTokens' : endpoint.wire === 'openai' ? caps.tokenLimit : 'max_tokens',
    temperature: caps.temperature,
    top_logprobs: caps.topLogprobs,
    structured_output: caps.structured,
    reasoning:
      caps.reasoning === 'none'
        ? 'none'
        : `${caps.reasoning}${caps.minimalEffort ? ` (least: ${caps.minimalEffort})` : caps.minThinkingBudget !== undefined ? ` (least: ${caps.minThinkingBudget} tokens)` : ''}`,
    source: caps.source,
  } as const;
}

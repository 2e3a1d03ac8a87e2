import type { ProviderPreferences } from '../../shared/schemas/provider-preferences';
import type { ModelWithEndpoints } from '../../shared/schemas/model';
import type { ZdrEndpoint } from '../../shared/schemas/endpoint';
import type { Catalog } from './catalog/catalog';
import { modelRecord, zdrRecord, type EndpointView } from './catalog/listing';
import type { CatalogEndpoint } from './catalog/types';
import type { Clock } from './clock';
import { UpstreamError } from './providers/upstream-error';
import type { ProviderKeys } from './keys/provider-keys';
import type { EndpointMetrics } from './metrics/endpoint-metrics';
import type { UpstreamHttp } from './providers/http';
import { ADAPTERS } from './providers/registry';
import type { CallContext, ProviderAdapter, Target } from './providers/types';
import { executePlan, type AttemptOutput, type ExecuteOptions, type ExecutionResult } from './routing/executor';
import type { HealthRegistry } from './routing/health';
import { planRoute, type AccountRouting, type Candidate, type Plan, type PlannedAttempt, type RequestNeeds } from './routing/plan';
import type { CancelSignal } from './cancel';
import { withoutLearned, type Capabilities } from './providers/capabilities';
import type { LearnedCapabilities, Refusal } from './catalog/learned';

export interface GatewayDeps {
  catalog: Catalog;
  metrics: EndpointMetrics;
  health: HealthRegistry;
  http: UpstreamHttp;
  providerKeys: ProviderKeys;
  clock: Clock;
  account: () => AccountRouting;
  learned: LearnedCapabilities;
  random?: () => number;
}

export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

/** The routing core: live views of endpoints, plans, and their execution against providers. */
export class Gateway {
  constructor(private readonly deps: GatewayDeps) {}

  /** What the listings show: figures computed now, not the routing cache. */
  view(endpoint: CatalogEndpoint): EndpointView {
    return { endpoint, figures: this.deps.metrics.figures(endpoint.id, { fresh: true }), health: this.deps.health.snapshot(endpoint.id) };
  }

  candidates(modelId: string): Candidate[] {
    return this.deps.catalog.endpointsOf(modelId).map((endpoint) => {
      const figures = this.deps.metrics.figures(endpoint.id);
      const health = this.deps.health.snapshot(endpoint.id);
      return {
        endpoint,
        latency: figures.latency,
        throughput: figures.throughput,
        successRate1d: figures.successRate1d,
        attempts1d: figures.attempts1d,
        recentFaultAt: figures.recentFaultAt,
        paused: health.paused,
        cooldownUntil: health.cooldownUntil,
        lastFailureAt: health.lastFailureAt,
      };
    });
  }

  /** Spec 4.2: the model and every endpoint serving it, with measured figures. */
  listing(modelId: string): ModelWithEndpoints {
    const model = this.deps.catalog.model(modelId);
    return modelRecord(model, this.deps.catalog.endpointsOf(modelId).map((e) => this.view(e)));
  }

  /** Spec 4.3: every endpoint whose provider retains no prompts. */
  zdrListing(): ZdrEndpoint[] {
    return this.deps.catalog
      .endpoints()
      .filter((e) => e.provider.data_policy.zdr === true)
      .map((e) => zdrRecord(this.view(e)));
  }

  model(modelId: string) {
    return this.deps.catalog.model(modelId);
  }

  plan(modelId: string, preferences: ProviderPreferences | undefined, needs: RequestNeeds): Plan {
    this.deps.catalog.model(modelId);
    return planRoute({
      modelId,
      candidates: this.candidates(modelId),
      preferences,
      account: this.deps.account(),
      needs,
      now: this.deps.clock.now(),
      random: this.deps.random ?? Math.random,
    });
  }

  /** Where to send a call; a provider's key is read from the secret store only when it needs one. */
  target(endpoint: CatalogEndpoint): Target | Promise<Target> {
    const { base_url: baseUrl, local, slug } = endpoint.provider;
    const capabilities = this.capabilities(endpoint);
    if (local) return { baseUrl, model: endpoint.upstreamModel, apiKey: undefined, capabilities };
    return this.deps.providerKeys.keyFor(slug, baseUrl, endpoint.provider.name).then((found) => {
      // A key is only ever sent to the address it was entered for.
      if (found && 'refused' in found) throw new UpstreamError('unconfigured', found.refused);
      return { baseUrl, model: endpoint.upstreamModel, apiKey: found?.key, capabilities };
    });
  }

  /** What a request to the endpoint may carry now: its table row, less what it refused before. */
  capabilities(endpoint: CatalogEndpoint): Capabilities {
    return withoutLearned(endpoint.capabilities, this.deps.learned.refused(endpoint.id));
  }

  /** What the endpoint refused at run time, for Endpoints. */
  refusals(endpoint: CatalogEndpoint): Refusal[] {
    return this.deps.learned.list(endpoint.id);
  }

  /** Remembers that the endpoint refused a parameter or feature, so later requests leave it out. */
  learn(endpoint: CatalogEndpoint, parameter: string, message: string): void {
    this.deps.learned.learn(endpoint.id, parameter, message);
  }

  adapter(endpoint: CatalogEndpoint): ProviderAdapter {
    return ADAPTERS[endpoint.provider.wire_format];
  }

  context(signal: CancelSignal): CallContext {
    return { http: this.deps.http, clock: this.deps.clock, signal };
  }

  /** Plans, then runs `call` on each planned endpoint until one succeeds. */
  route<T>(
    plan: Plan,
    call: (attempt: PlannedAttempt, signal: CancelSignal) => Promise<AttemptOutput<T>>,
    options: Partial<ExecuteOptions> & { requestId: string },
  ): Promise<ExecutionResult<T>> {
    return executePlan(plan, call, this.deps, {
      deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
      attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      requestId: options.requestId,
      signal: options.signal,
    });
  }

  /** A provider that needs a key we do not have: an auth failure, said plainly, never sent upstream. */
  assertKey(endpoint: CatalogEndpoint, target: Target): void {
    if (!endpoint.provider.local && !target.apiKey) {
      throw new UpstreamError('unconfigured', `no API key is set for ${endpoint.provider.name} (add one in Settings)`);
    }
  }
}

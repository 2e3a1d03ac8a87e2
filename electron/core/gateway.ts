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
import type { CallContext, ChatRequest, ChatResult, DecideResult, NativeAsk, ProviderAdapter, Target, UpstreamUsage } from './providers/types';
import { executePlan, type AttemptOutput, type ExecuteOptions, type ExecutionResult } from './routing/executor';
import type { HealthRegistry } from './routing/health';
import { planRoute, type AccountRouting, type Candidate, type Plan, type PlannedAttempt, type RequestNeeds } from './routing/plan';
import type { CancelSignal } from './cancel';
import { withoutLearned, type Capabilities } from './providers/capabilities';
import { ACCOUNT_PLACEHOLDER } from './catalog/bundled-providers';
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

export interface CallHooks {
  /** The provider has read the whole prompt (its first output token arrived). */
  onFirstToken?: (() => void) | undefined;
  /** A failed call that was still billed (a refusal, an exhausted budget). */
  onBilled?: (usage: UpstreamUsage) => void;
}

/** Parameters one call may find refused, one after another, before it gives up on the endpoint. */
const MAX_REFUSALS = 4;
/** What `call` learns when a reply ran out of output budget before any answer. */
const OUTPUT_BUDGET = 'output_budget';

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
    return modelRecord(
      model,
      this.deps.catalog.endpointsOf(modelId).map((e) => this.view(e)),
    );
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

  /** Whether any endpoint of the model is a host that answers Decisions itself. */
  hasNativeEndpoint(modelId: string): boolean {
    return this.deps.catalog.endpointsOf(modelId).some((e) => e.host !== null);
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

  /**
   * The one way to call an endpoint's chat API: where it is, its key (only to the origin it was
   * entered for), its wire format and what it accepts are looked up here. When the endpoint says a
   * parameter or feature is unsupported, that is remembered for it and the call made again without
   * it (refused calls are not billed); when nothing is left to change, the error stands and the
   * executor moves on. Null when the call asked for log-probabilities and the endpoint refused them:
   * the caller then asks another way. `onBilled` hears of what failed calls still cost.
   */
  async call(endpoint: CatalogEndpoint, request: ChatRequest, signal: CancelSignal, hooks: CallHooks = {}): Promise<ChatResult | null> {
    const target = await this.target(endpoint);
    this.assertKey(endpoint, target);
    const adapter = this.adapter(endpoint);
    const ctx: CallContext = { http: this.deps.http, clock: this.deps.clock, signal, onFirstToken: hooks.onFirstToken };
    for (let refusals = 0; ; refusals += 1) {
      try {
        return await adapter.chat!(target, request, ctx);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // A model that declined, or ran out of budget, was still paid for what it produced.
        if (error.details.usage) hooks.onBilled?.(error.details.usage);
        // Out of budget before any answer: remembered, so the next request leaves more room; this one moves on.
        if (error.kind === 'incomplete') await this.learn(endpoint, OUTPUT_BUDGET, error.message);
        const refused = error.kind === 'unsupported' ? error.details.parameter : undefined;
        if (!refused || refusals >= MAX_REFUSALS) throw error;
        const before = JSON.stringify(target.capabilities);
        await this.learn(endpoint, refused, error.message);
        target.capabilities = this.capabilities(endpoint);
        if (JSON.stringify(target.capabilities) === before) throw error;
        if (request.topLogprobs && target.capabilities.topLogprobs === 0) return null;
      }
    }
  }

  /** A host that answers Decisions itself answers a whole request, in its own wire family. */
  async decide(endpoint: CatalogEndpoint, ask: NativeAsk, signal: CancelSignal): Promise<DecideResult> {
    const target = await this.target(endpoint);
    this.assertKey(endpoint, target);
    return this.adapter(endpoint).decide!(target, ask, { http: this.deps.http, clock: this.deps.clock, signal });
  }

  /** Where to send a call; a provider's key is read from the secret store only when it needs one. */
  private target(endpoint: CatalogEndpoint): Target | Promise<Target> {
    const { base_url: baseUrl, local, slug } = endpoint.provider;
    const capabilities = this.capabilities(endpoint);
    const { host } = endpoint;
    if (local) return { baseUrl, model: endpoint.upstreamModel, apiKey: undefined, capabilities, host };
    return this.deps.providerKeys.keyFor(slug, baseUrl, endpoint.provider.name).then((found) => {
      // A key is only ever sent to the address it was entered for.
      if (found && 'refused' in found) throw new UpstreamError('unconfigured', found.refused);
      return { baseUrl, model: endpoint.upstreamModel, apiKey: found?.key, capabilities, host };
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
  private learn(endpoint: CatalogEndpoint, parameter: string, message: string): Promise<void> {
    return this.deps.learned.learn(endpoint.id, parameter, message);
  }

  adapter(endpoint: CatalogEndpoint): ProviderAdapter {
    return ADAPTERS[endpoint.wire];
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

  /** A provider that needs a key (or an address) we do not have: said plainly, never sent upstream. */
  private assertKey(endpoint: CatalogEndpoint, target: Target): void {
    if (!endpoint.provider.local && !target.apiKey) {
      throw new UpstreamError('unconfigured', `no API key is set for ${endpoint.provider.name} (add one in Settings)`);
    }
    if (target.baseUrl.includes(ACCOUNT_PLACEHOLDER)) {
      throw new UpstreamError(
        'unconfigured',
        `${endpoint.provider.name}'s address needs your account id in place of ${ACCOUNT_PLACEHOLDER} (set the provider's base_url in a catalog file)`,
      );
    }
  }
}

import type { ProviderPreferences } from '../../../shared/schemas/provider-preferences';
import type { Catalog } from '../catalog/catalog';
import type { CancelSignal } from '../cancel';
import type { Clock } from '../clock';
import type { EndpointMetrics } from '../metrics/endpoint-metrics';
import { executePlan, type AttemptOutput, type ExecuteOptions, type ExecutionResult } from './executor';
import type { HealthRegistry } from './health';
import { planRoute, type AccountRouting, type Candidate, type Plan, type PlanInput, type PlannedAttempt, type RequestNeeds } from './plan';

export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

export interface RouterDeps {
  catalog: Catalog;
  metrics: EndpointMetrics;
  health: HealthRegistry;
  clock: Clock;
  /** The account's own routing rules (Settings), merged with each request's preferences. */
  account: () => AccountRouting;
  random?: () => number;
}

/** One attempt on one planned endpoint: what the router calls, in plan order, until one succeeds. */
export type Attempt<T> = (attempt: PlannedAttempt, signal: CancelSignal) => Promise<AttemptOutput<T>>;

/**
 * Where a request goes: a plan over the catalog's endpoints of a model, ordered by the request's
 * preferences, the account's rules and each endpoint's measured figures and health (plan.ts, pure);
 * and the plan run, one `attempt` per endpoint in order until one succeeds, each with its timeout
 * inside one deadline (executor.ts). The router never calls a provider itself: the attempt does.
 */
export class Router {
  constructor(private readonly deps: RouterDeps) {}

  /** Each endpoint of the model with what routing weighs: its figures and its health now. */
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

  plan(modelId: string, preferences: ProviderPreferences | undefined, needs: RequestNeeds): Plan {
    return planRoute({ ...this.planInput(modelId, preferences, needs), random: this.deps.random ?? Math.random });
  }

  /** What the planner weighs for a request now, but its random draw: the cost model plans with it too. */
  planInput(modelId: string, preferences: ProviderPreferences | undefined, needs: RequestNeeds): Omit<PlanInput, 'random'> {
    this.deps.catalog.model(modelId);
    return { modelId, candidates: this.candidates(modelId), preferences, account: this.deps.account(), needs, now: this.deps.clock.now() };
  }

  /** Runs `attempt` on each planned endpoint until one succeeds; every attempt is recorded for the metrics and the breaker. */
  run<T>(plan: Plan, attempt: Attempt<T>, options: Partial<ExecuteOptions> & { requestId: string }): Promise<ExecutionResult<T>> {
    return executePlan(plan, attempt, this.deps, {
      deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
      attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      requestId: options.requestId,
      signal: options.signal,
    });
  }
}

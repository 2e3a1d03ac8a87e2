import type { ProviderPreferences } from '../../../shared/schemas/provider-preferences';
import type { PercentileStats } from '../../../shared/schemas/endpoint';
import type { CatalogEndpoint } from '../catalog/types';
import type { DecisionShape } from './host-fit';

/** What a plan is made from: the request's model, needs and preferences, and each candidate's live state. */

/** What the plan knows of an endpoint's live state: measured figures and breaker health. */
export interface Candidate {
  endpoint: CatalogEndpoint;
  latency: PercentileStats | null;
  throughput: PercentileStats | null;
  successRate1d: number | null;
  attempts1d: number;
  recentFaultAt: number | null;
  paused: boolean;
  cooldownUntil: number | null;
  lastFailureAt: number | null;
}

export interface AccountRouting {
  only: readonly string[];
  ignore: readonly string[];
  zdr: boolean;
}

export interface RequestNeeds {
  parameters: readonly string[];
  /** Upstream calls the request makes at least (one per question): a per-request price is paid on each. */
  calls?: number;
  promptTokens: number;
  completionTokens: number;
  images: number;
  /** A Decisions request's shape: endpoints whose host answers natively must be able to take it. */
  decision?: DecisionShape;
}

export interface PlanInput {
  modelId: string;
  candidates: readonly Candidate[];
  preferences: ProviderPreferences | undefined;
  account: AccountRouting;
  needs: RequestNeeds;
  now: number;
  /** Uniform in [0, 1): the only randomness, for load balancing. */
  random: () => number;
}

/** Expected cost of this request on the endpoint, USD; Infinity when a needed price is unknown. */
export function expectedCost(endpoint: CatalogEndpoint, needs: RequestNeeds): number {
  const p = endpoint.prices;
  if (p.prompt === null || p.completion === null) return Number.POSITIVE_INFINITY;
  return p.prompt * needs.promptTokens + p.completion * needs.completionTokens + (p.request ?? 0) + (p.image ?? 0) * needs.images;
}

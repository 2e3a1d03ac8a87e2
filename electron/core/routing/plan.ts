import type { CatalogEndpoint } from '../catalog/types';
import { GatewayError } from '../errors';
import { rankHead } from './rank';
import { endpointSlug } from '../catalog/catalog';
import { anyMatch, cutoffs, hardFilters, HOST_LIMITS, lower, matchesProvider, preferenceTier, TIER_NOTES } from './filters';
import { expectedCost, type Candidate, type PlanInput, type RequestNeeds } from './plan-input';

export { matchesProvider } from './filters';
export { expectedCost } from './plan-input';
export type { AccountRouting, Candidate, PlanInput, RequestNeeds } from './plan-input';

export interface PlannedAttempt {
  endpoint: CatalogEndpoint;
  /** Why this endpoint is at this place, for the UI's "why this provider". */
  reason: string;
  /** Only the matched provider's own entry of `provider.options`. */
  options: Record<string, unknown> | undefined;
}

export interface Plan {
  strategy: 'order' | 'sort' | 'load-balance';
  attempts: PlannedAttempt[];
  /** Eligible endpoints left out because a request tries at most MAX_ATTEMPTS. */
  unplanned: number;
  excluded: { endpoint: CatalogEndpoint; reason: string }[];
}

/** Load balancing skips an endpoint with a provider fault (a 429 included) in this window. */
export const OUTAGE_WINDOW_MS = 30_000;
/**
 * A request tries at most this many endpoints. Far more than any deadline lets through in
 * practice; it keeps a plan over 10,000 endpoints to ranking 64 of them, not sorting them all.
 */
export const MAX_ATTEMPTS = 64;
const RANKED_ATTEMPTS = MAX_ATTEMPTS;
const MAX_EXPLAINED_EXCLUSIONS = 200;

/** Keeps a sort key finite and inside the band below the tier and partition offsets. */
const clampKey = (k: number): number => (Number.isNaN(k) ? 1e8 : Math.max(-1e8, Math.min(1e8, k)));
const ESTABLISHED_ATTEMPTS = 20;

function sortKey(by: string, needs: RequestNeeds): (c: Candidate) => number {
  switch (by) {
    case 'price':
      return (c) => expectedCost(c.endpoint, needs);
    case 'latency':
      return (c) => c.latency?.p50 ?? Number.POSITIVE_INFINITY;
    case 'throughput':
      return (c) => -(c.throughput?.p50 ?? Number.NEGATIVE_INFINITY);
    default:
      // exacto: measured success rate first, endpoints with little data behind established ones.
      return (c) => (c.attempts1d >= ESTABLISHED_ATTEMPTS ? 0 : 10) - (c.successRate1d ?? 0);
  }
}

/** Weighted pick by 1 / price^2; free endpoints win outright, unknown prices weigh nothing unless all are unknown. */
function weightedPick(pool: Candidate[], needs: RequestNeeds, random: () => number): number {
  const n = pool.length;
  // One endpoint (the common case): nothing to weigh, and no randomness spent.
  if (n === 1) return 0;
  const weights = new Float64Array(n);
  let free = 0;
  let total = 0;
  for (let i = 0; i < n; i += 1) {
    const cost = expectedCost(pool[i]!.endpoint, needs);
    if (cost === 0) free += 1;
    weights[i] = cost === 0 ? Number.POSITIVE_INFINITY : Number.isFinite(cost) ? 1 / (cost * cost) : 0;
    if (Number.isFinite(weights[i]!)) total += weights[i]!;
  }
  if (free > 0) {
    let nth = Math.min(free - 1, Math.floor(random() * free));
    for (let i = 0; i < n; i += 1) if (weights[i] === Number.POSITIVE_INFINITY && nth-- === 0) return i;
  }
  if (total === 0) return Math.min(n - 1, Math.floor(random() * n));
  let point = random() * total;
  let last = 0;
  for (let i = 0; i < n; i += 1) {
    if (weights[i]! <= 0) continue;
    last = i;
    point -= weights[i]!;
    if (point < 0) return i;
  }
  return last;
}

/**
 * The routing plan: which endpoints to try, in which order, and why. Pure: the same input
 * (including `random`) gives the same plan. Throws a GatewayError when nothing can serve.
 */
export function planRoute(input: PlanInput): Plan {
  const { eligible, excluded } = eligibleCandidates(input);
  const ready: Candidate[] = [];
  const resting: Candidate[] = [];
  for (const c of eligible) (!c.paused && (c.cooldownUntil === null || c.cooldownUntil <= input.now) ? ready : resting).push(c);
  resting.sort((a, b) => (a.lastFailureAt ?? 0) - (b.lastFailureAt ?? 0));
  const ranking = rankingFor(input);
  const prefs = input.preferences;
  const planned =
    (prefs?.order ?? []).length > 0 ? byOrder(ready, ranking, input) : prefs?.sort ? bySort(ready, ranking, input) : byLoadBalancing(ready, ranking, input);
  return withResting(planned, resting, excluded, input);
}

/** Ranked endpoints of one strategy, before resting ones are added. */
interface Ordered {
  strategy: Plan['strategy'];
  ordered: { c: Candidate; reason: string }[];
  /** Eligible endpoints beyond the ranked head: not planned. */
  unplanned: number;
}

/** How candidates compare: the preference tier, the expected cost, and both with the sort key in one number. */
interface Ranking {
  tier: (c: Candidate) => number;
  cost: (c: Candidate) => number;
  /** One number per candidate: model partition, then preference tier, then the sort key. */
  combined: (base: (c: Candidate) => number, byModel: boolean) => (c: Candidate) => number;
}

function rankingFor(input: PlanInput): Ranking {
  const prefs = input.preferences;
  const hasPreferences = cutoffs(prefs?.preferred_max_latency) !== null || cutoffs(prefs?.preferred_min_throughput) !== null;
  const tier = hasPreferences ? (c: Candidate) => preferenceTier(c, prefs) : () => 0;
  return {
    tier,
    cost: (c) => expectedCost(c.endpoint, input.needs),
    combined: (base, byModel) => (c) => (byModel && c.endpoint.model.id !== input.modelId ? 1e12 : 0) + tier(c) * 1e9 + clampKey(base(c)),
  };
}

/** The candidates every hard filter lets through, and why the others were left out; a 404 naming the filters when none is left. */
function eligibleCandidates(input: PlanInput): { eligible: readonly Candidate[]; excluded: Plan['excluded'] } {
  const { candidates, preferences: prefs, account, needs } = input;
  if (candidates.length === 0) throw new GatewayError('not_found', `No provider endpoint serves model "${input.modelId}"`);
  const only = prefs?.only ?? [];
  const ignore = prefs?.ignore ?? [];
  if (only.length > 0 && only.every((o) => ignore.some((i) => lower(i) === lower(o)))) {
    throw new GatewayError('bad_request', 'Contradictory provider preferences: every provider in provider.only is also in provider.ignore');
  }
  const filters = hardFilters(prefs, account, needs);
  const excluded: Plan['excluded'] = [];
  const emptiedBy = new Map<string, number>();
  const eligible =
    filters.length === 0
      ? candidates
      : candidates.filter((c) => {
          for (const f of filters) {
            const why = f.test(c);
            if (why) {
              // Enough to explain a plan; the counts below cover the rest.
              if (excluded.length < MAX_EXPLAINED_EXCLUSIONS) excluded.push({ endpoint: c.endpoint, reason: why });
              emptiedBy.set(f.name, (emptiedBy.get(f.name) ?? 0) + 1);
              return false;
            }
          }
          return true;
        });
  if (eligible.length === 0) {
    const metadata = { excluded: excluded.map((e) => ({ endpoint: endpointSlug(e.endpoint), reason: e.reason })) };
    // Nothing the caller preferred is at fault: no host can take a request of this shape, which the caller must change.
    if (emptiedBy.size === 1 && emptiedBy.has(HOST_LIMITS)) {
      const reasons = [...new Set(excluded.map((e) => e.reason))].join('; ');
      throw new GatewayError('bad_request', `No endpoint of "${input.modelId}" can take this request: ${reasons}`, { metadata });
    }
    const reasons = [...emptiedBy.entries()].map(([name, n]) => `${name} excluded ${n}`).join(', ');
    throw new GatewayError('not_found', `No endpoint of "${input.modelId}" satisfies the provider preferences (${reasons})`, { metadata });
  }
  return { eligible, excluded };
}

/** `provider.order`: the named providers in that order (each by price), then the rest by price unless fallbacks are off. */
function byOrder(ready: Candidate[], { tier, cost, combined }: Ranking, input: PlanInput): Ordered {
  const prefs = input.preferences;
  let unplanned = 0;
  const named: Candidate[] = [];
  const taken = new Set<Candidate>();
  for (const name of prefs?.order ?? []) {
    const matching = rankHead(
      ready.filter((c) => !taken.has(c) && matchesProvider(c.endpoint, name)),
      cost,
      RANKED_ATTEMPTS,
    );
    unplanned += matching.unranked;
    for (const c of matching.ranked) {
      taken.add(c);
      named.push(c);
    }
  }
  const rest = rankHead(
    ready.filter((c) => !taken.has(c)),
    combined(cost, false),
    RANKED_ATTEMPTS,
  );
  const fallbacks = prefs?.allow_fallbacks !== false;
  return {
    strategy: 'order',
    ordered: [
      ...named.map((c, i) => ({ c, reason: `provider.order position ${i + 1}` })),
      ...(fallbacks ? rest.ranked.map((c) => ({ c, reason: `fallback after provider.order, by price${TIER_NOTES[tier(c)]}` })) : []),
    ],
    unplanned: unplanned + (fallbacks ? rest.unranked : 0),
  };
}

/** `provider.sort`: every ready endpoint by the key (price, latency, throughput, exacto), grouped by model unless `partition: none`. */
function bySort(ready: Candidate[], { tier, combined }: Ranking, input: PlanInput): Ordered {
  const sort = input.preferences!.sort!;
  const by = typeof sort === 'string' ? sort : (sort.by ?? 'price');
  const partition = typeof sort === 'string' ? 'model' : (sort.partition ?? 'model');
  const across = partition === 'none' ? ' across models' : '';
  const { ranked, unranked } = rankHead(ready, combined(sortKey(by, input.needs), partition === 'model'), RANKED_ATTEMPTS);
  return { strategy: 'sort', ordered: ranked.map((c) => ({ c, reason: `sorted by ${by}${across}${TIER_NOTES[tier(c)]}` })), unplanned: unranked };
}

/**
 * Neither order nor sort: one endpoint drawn at random weighted by 1/price² among those in the
 * best preference tier that did not fail in the last 30 s, then the rest by price as fallbacks.
 */
function byLoadBalancing(ready: Candidate[], { tier, cost, combined }: Ranking, input: PlanInput): Ordered {
  const prefs = input.preferences;
  const hasPreferences = cutoffs(prefs?.preferred_max_latency) !== null || cutoffs(prefs?.preferred_min_throughput) !== null;
  const recentlyFailed = (c: Candidate) => c.recentFaultAt !== null && input.now - c.recentFaultAt <= OUTAGE_WINDOW_MS;
  let bestTier = 3;
  if (hasPreferences) for (const c of ready) bestTier = Math.min(bestTier, tier(c));
  const best = hasPreferences ? ready.filter((c) => tier(c) === bestTier) : ready;
  const stable = best.filter((c) => !recentlyFailed(c));
  const pool = stable.length > 0 ? stable : best;
  const picked = pool.length > 0 ? pool[weightedPick(pool, input.needs, input.random)] : undefined;
  const { ranked, unranked } = rankHead(ready, combined(cost, false), RANKED_ATTEMPTS);
  const rankedOthers = ranked.filter((c) => c !== picked).slice(0, RANKED_ATTEMPTS - 1);
  return {
    strategy: 'load-balance',
    ordered: [
      ...(picked ? [{ c: picked, reason: 'chosen by price-weighted load balancing (1/price²)' }] : []),
      ...rankedOthers.map((c) => ({ c, reason: recentlyFailed(c) ? 'fallback; failed in the last 30 s' : `fallback, by price${TIER_NOTES[tier(c)]}` })),
    ],
    unplanned: unranked,
  };
}

/**
 * Paused and cooling-down endpoints go last (none without fallbacks); without fallbacks only the
 * ordered providers, or the first endpoint, are kept; when everything allowed is paused the least
 * recently failed is tried rather than refusing. At most MAX_ATTEMPTS in all.
 */
function withResting({ strategy, ordered, unplanned }: Ordered, resting: Candidate[], excluded: Plan['excluded'], input: PlanInput): Plan {
  const prefs = input.preferences;
  const order = prefs?.order ?? [];
  const noFallbacks = prefs?.allow_fallbacks === false;
  const allowedResting = noFallbacks && order.length > 0 ? resting.filter((c) => anyMatch(c.endpoint, order)) : resting;
  if (noFallbacks) {
    if (order.length === 0) ordered = ordered.slice(0, 1);
    unplanned = 0;
  }
  const last = noFallbacks
    ? []
    : resting.map((c) => ({ c, reason: c.paused ? 'paused by the circuit breaker; tried last' : 'cooling down after Retry-After; tried last' }));
  if (ordered.length === 0 && last.length === 0 && allowedResting.length > 0) {
    ordered = [{ c: allowedResting[0]!, reason: 'all allowed endpoints paused; least recently failed' }];
  }
  if (ordered.length === 0 && last.length === 0) {
    throw new GatewayError('not_found', `None of the providers in provider.order (${order.join(', ')}) serves "${input.modelId}", and fallbacks are off`);
  }
  const options = prefs?.options;
  const attempt = (c: Candidate, reason: string): PlannedAttempt => ({ endpoint: c.endpoint, reason, options: options?.[c.endpoint.provider.slug] });
  const attempts = [...ordered, ...last].slice(0, MAX_ATTEMPTS).map(({ c, reason }) => attempt(c, reason));
  return { strategy, excluded, attempts, unplanned: unplanned + Math.max(0, ordered.length + last.length - MAX_ATTEMPTS) };
}

/** A plan that tries one given endpoint (measuring probes, tests). */
export const singleEndpointPlan = (endpoint: CatalogEndpoint, reason: string): Plan => ({
  strategy: 'order',
  excluded: [],
  unplanned: 0,
  attempts: [{ endpoint, reason, options: undefined }],
});

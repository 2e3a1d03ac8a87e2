import type { CatalogEndpoint } from '../catalog/types';
import { planRoute, type Candidate, type Plan, type PlanInput } from './plan';

/** How an endpoint has been faring: what routing's health rules and its fallbacks turn on. */
export interface EndpointRecord {
  /** Share of its attempts that failed by the provider's fault (0 when unmeasured). */
  faultRate: number;
}

/** Where requests of one kind end up, as the router sends them, given how each endpoint fares. */
export interface RoutingOdds {
  /** Each endpoint's share of the answered requests. */
  answers: Map<string, { endpoint: CatalogEndpoint; share: number }>;
  /** Each endpoint's share of the attempts made (a failed attempt counts where it was made). */
  attempts: Map<string, number>;
  /** Chance that a request finds an answer at all on its plan. */
  answered: number;
  /** The chance of each state of which endpoints failed in the last 30 s (for the spread of a run's cost), and where answers go in it. */
  states: { probability: number; answers: Map<string, number> }[];
}

/** Load balancing skips an endpoint that failed in this window (plan.ts's outage rule). */
const OUTAGE_WINDOW_S = 30;
/** Draws closer than this are not told apart: the regions of [0, 1) the planner's pick is constant on are found to this width. */
const DRAW_RESOLUTION = 1e-7;
/** Endpoints whose outage state is enumerated; beyond, the likeliest states are sampled. */
const MAX_ENUMERATED = 6;

/**
 * Where requests go, asked of the router's own planner (plan.ts) rather than worked out again: for
 * each state of which endpoints failed in the last 30 s (each independently, with the chance its
 * fault rate and its share of `requestsPerSecond` give it), the planner's pick over evenly spread
 * draws, then the plan's fallbacks in order, each attempt answering with its endpoint's success
 * rate. The chance of being in an outage depends on the traffic each endpoint gets, which depends on
 * those chances: worked out to a fixed point.
 */
export function routingOdds(input: Omit<PlanInput, 'random'>, records: (endpoint: CatalogEndpoint) => EndpointRecord, requestsPerSecond: number): RoutingOdds {
  const faulty = input.candidates.filter((c) => records(c.endpoint).faultRate > 0);
  const outage = new Map<string, number>(faulty.map((c) => [c.endpoint.id, 0]));
  let odds = oddsGiven(input, records, faulty, outage);
  for (let round = 0; round < 60 && faulty.length > 0; round += 1) {
    let moved = 0;
    for (const c of faulty) {
      const rate = records(c.endpoint).faultRate * (odds.attempts.get(c.endpoint.id) ?? 0) * requestsPerSecond;
      const next = 1 - Math.exp(-rate * OUTAGE_WINDOW_S);
      const before = outage.get(c.endpoint.id)!;
      // Halfway each round: a fixed point reached without oscillating between the two extremes.
      outage.set(c.endpoint.id, (before + next) / 2);
      moved = Math.max(moved, Math.abs(next - before));
    }
    odds = oddsGiven(input, records, faulty, outage);
    if (moved < 1e-5) break;
  }
  return odds;
}

function oddsGiven(
  input: Omit<PlanInput, 'random'>,
  records: (endpoint: CatalogEndpoint) => EndpointRecord,
  faulty: readonly Candidate[],
  outage: ReadonlyMap<string, number>,
): RoutingOdds {
  const answers = new Map<string, { endpoint: CatalogEndpoint; share: number }>();
  const attempts = new Map<string, number>();
  const states: RoutingOdds['states'] = [];
  let answered = 0;
  for (const { failed, probability } of outageStates(faulty, outage)) {
    if (probability === 0) continue;
    const candidates = input.candidates.map((c) => (failed.has(c.endpoint.id) ? { ...c, recentFaultAt: input.now } : c));
    const here = new Map<string, number>();
    for (const { plan, width } of plansByDraw((draw) => planRoute({ ...input, candidates, random: () => draw }))) {
      // Along the plan: each attempt is made when every one before it failed.
      let reached = probability * width;
      for (const { endpoint } of plan.attempts) {
        attempts.set(endpoint.id, (attempts.get(endpoint.id) ?? 0) + reached);
        const success = 1 - records(endpoint).faultRate;
        const share = reached * success;
        here.set(endpoint.id, (here.get(endpoint.id) ?? 0) + share / probability);
        const known = answers.get(endpoint.id);
        answers.set(endpoint.id, { endpoint, share: (known?.share ?? 0) + share });
        answered += share;
        reached *= 1 - success;
        if (reached < 1e-12) break;
      }
    }
    states.push({ probability, answers: here });
  }
  // Shares of the answered requests, and of the attempts made.
  for (const a of answers.values()) a.share = answered > 0 ? a.share / answered : 0;
  const made = [...attempts.values()].reduce((s, v) => s + v, 0);
  for (const [id, v] of attempts) attempts.set(id, made > 0 ? v / made : 0);
  return { answers, attempts, answered, states };
}

/**
 * The plans the planner makes over its random draw, each with the share of [0, 1) it is made on.
 * Its pick is one endpoint per contiguous stretch of the draw (weighted picks are cumulative), and
 * the rest of the plan follows from the pick: a stretch whose two ends pick the same is one plan.
 */
function plansByDraw(planFor: (draw: number) => Plan): { plan: Plan; width: number }[] {
  const found: { plan: Plan; width: number }[] = [];
  const first = (plan: Plan) => plan.attempts[0]?.endpoint.id ?? null;
  const split = (from: number, to: number, atFrom: Plan, atTo: Plan): void => {
    if (first(atFrom) === first(atTo) || to - from < DRAW_RESOLUTION) {
      found.push({ plan: atFrom, width: to - from });
      return;
    }
    const middle = (from + to) / 2;
    const atMiddle = planFor(middle);
    split(from, middle, atFrom, planFor(Math.max(from, middle - DRAW_RESOLUTION / 2)));
    split(middle, to, atMiddle, atTo);
  };
  split(0, 1, planFor(0), planFor(1 - DRAW_RESOLUTION / 2));
  return found;
}

/** Every combination of which faulty endpoints are in an outage, with its chance (the likeliest ones when there are too many). */
function outageStates(faulty: readonly Candidate[], outage: ReadonlyMap<string, number>): { failed: Set<string>; probability: number }[] {
  const ids = faulty.map((c) => c.endpoint.id);
  // Beyond the enumerated ones, an endpoint is taken as in its likelier state.
  const enumerated = [...ids].sort((a, b) => Math.abs(0.5 - outage.get(a)!) - Math.abs(0.5 - outage.get(b)!)).slice(0, MAX_ENUMERATED);
  const fixed = ids.filter((id) => !enumerated.includes(id) && outage.get(id)! >= 0.5);
  const states: { failed: Set<string>; probability: number }[] = [];
  for (let mask = 0; mask < 1 << enumerated.length; mask += 1) {
    const failed = new Set(fixed);
    let probability = 1;
    enumerated.forEach((id, i) => {
      const p = outage.get(id)!;
      if (mask & (1 << i)) {
        failed.add(id);
        probability *= p;
      } else probability *= 1 - p;
    });
    states.push({ failed, probability });
  }
  return states;
}

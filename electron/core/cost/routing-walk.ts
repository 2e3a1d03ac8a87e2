/**
 * Where a stream of requests ends up, asked of the router's own planner (routing/plan.ts) rather
 * than worked out again. Requests arrive at a steady rate; each is planned as the router plans it
 * given which endpoints failed in the last 30 s (load balancing skips them) or are cooling down after
 * a 429 (tried last); then its plan is followed attempt by attempt, each failing with its endpoint's
 * fault rate. A fault marks the endpoint for the next 30 s, so one failure moves a stretch of the
 * traffic to the fallbacks: a run's cost depends on when faults fall, and the walk is repeated to
 * give the spread as well as the mean.
 */
import { seededRandom } from '../../../shared/metrics/resample';
import type { CatalogEndpoint } from '../catalog/types';
import { OUTAGE_WINDOW_MS, planRoute, type Candidate, type Plan, type PlanInput } from '../routing/plan';

/** How an endpoint fares: what routing's health rules turn on. */
export interface EndpointOdds {
  /** Share of attempts failing by the provider's fault (5xx, overload, reset), 429s not included. */
  faultRate: number;
  /** Share of attempts answered 429. */
  rateLimitRate: number;
  /** How long a 429 asks to wait, in ms. */
  retryAfterMs: number;
}

/** Draws closer than this are not told apart: the stretches of [0, 1) the planner's pick is constant on are found to this width. */
const DRAW_RESOLUTION = 1e-7;
/** Walks of a run: the spread's percentiles are read from these. */
const WALKS = 200;
/** Requests planned over all the walks at most: a longer run is walked fewer times. */
const MAX_STEPS = 2_000_000;

export interface WalkInput {
  plan: Omit<PlanInput, 'random'>;
  odds: (endpoint: CatalogEndpoint) => EndpointOdds;
  /** How many requests, and how many a second they are sent at. */
  requests: number;
  perSecond: number;
  /**
   * How long a request takes on each endpoint that answers it (ms, by endpoint id), and how many are
   * in flight: given both, the walk's clock moves by each request's own time over the requests in
   * flight, so a stretch on a fast endpoint sends more requests into an outage's 30 s than a stretch
   * on a slow one. An endpoint not in the map takes 1000 / perSecond × inFlight.
   */
  timeOn?: { ms: ReadonlyMap<string, number>; inFlight: number };
  /**
   * How far the pace may be off, as a factor either way: each walk sends at a pace drawn between
   * perSecond / paceSpread and perSecond × paceSpread (evenly on a log scale). 1 (the default): exactly perSecond.
   */
  paceSpread?: number;
  seed?: number;
  /** Walks at most (WALKS by default). */
  walks?: number;
}

/** Each walk: how many requests each endpoint answered (a call of a request of several calls counts as its share), and how many found no answer. */
export interface Walks {
  endpoints: Map<string, CatalogEndpoint>;
  walks: { answered: Map<string, number>; unanswered: number }[];
}

interface Timers {
  fault: Map<string, number>;
  cool: Map<string, number>;
}

/** Walks the run `walks` times (fewer for a long run) with seeded draws, so one input gives one answer. */
export function walkRouting(input: WalkInput): Walks {
  const { plan, odds, requests } = input;
  const random = seededRandom(input.seed ?? 0x5eed);
  const endpoints = new Map(plan.candidates.map((c) => [c.endpoint.id, c.endpoint]));
  const fares = new Map(plan.candidates.map((c) => [c.endpoint.id, odds(c.endpoint)]));
  const plans = new Map<string, { plan: Plan; until: number }[]>();
  const gapMs = input.perSecond > 0 ? 1000 / input.perSecond : Number.POSITIVE_INFINITY;
  const count = Math.max(1, Math.min(input.walks ?? WALKS, Math.floor(MAX_STEPS / Math.max(1, requests))));
  const walks: Walks['walks'] = [];
  const spread = Math.log(Math.max(1, input.paceSpread ?? 1));
  const chatCalls = Math.max(1, plan.needs.calls ?? 1);
  for (let w = 0; w < count; w += 1) {
    const scale = Math.exp(spread * (2 * random() - 1));
    const gap = gapMs * scale;
    // Each walk starts from the endpoints' state now: their last fault and cool-down as measured.
    const timers: Timers = { fault: new Map(), cool: new Map() };
    for (const c of plan.candidates) {
      if (c.recentFaultAt !== null) timers.fault.set(c.endpoint.id, c.recentFaultAt + OUTAGE_WINDOW_MS - plan.now);
      if (c.cooldownUntil !== null) timers.cool.set(c.endpoint.id, c.cooldownUntil - plan.now);
    }
    const answered = new Map<string, number>();
    let unanswered = 0;
    let clock = 0;
    for (let i = 0; i < requests; i += 1) {
      const t = input.timeOn ? clock : Number.isFinite(gap) ? i * gap : i * 10 * OUTAGE_WINDOW_MS;
      const key = stateKey(timers, t);
      let options = plans.get(key);
      if (!options) {
        options = plansByDraw(plan, timers, t);
        plans.set(key, options);
      }
      const draw = random();
      const picked = options.find((o) => draw < o.until) ?? options[options.length - 1]!;
      // Each of the request's calls follows its plan on its own (the engine sends them side by
      // side): a request of two questions to a chat endpoint meets its faults twice; a native
      // decisions host answers every question in one call. Each call is a share of the request.
      const calls = picked.plan.attempts[0]?.endpoint.host ? 1 : chatCalls;
      let done = true;
      let took: string | null = null;
      for (let call = 0; call < calls; call += 1) {
        let answeredCall = false;
        for (const { endpoint } of picked.plan.attempts) {
          const fare = fares.get(endpoint.id)!;
          const roll = random();
          if (roll < fare.rateLimitRate) {
            timers.cool.set(endpoint.id, t + fare.retryAfterMs);
            timers.fault.set(endpoint.id, t + OUTAGE_WINDOW_MS);
          } else if (roll < fare.rateLimitRate + fare.faultRate) timers.fault.set(endpoint.id, t + OUTAGE_WINDOW_MS);
          else {
            answered.set(endpoint.id, (answered.get(endpoint.id) ?? 0) + 1 / calls);
            took ??= endpoint.id;
            answeredCall = true;
            break;
          }
        }
        done &&= answeredCall;
      }
      if (!done) unanswered += 1;
      if (input.timeOn) {
        const own = took === null ? undefined : input.timeOn.ms.get(took);
        const ms = own !== undefined ? own * scale : Number.isFinite(gap) ? gap * input.timeOn.inFlight : 10 * OUTAGE_WINDOW_MS;
        clock += ms / Math.max(1e-9, input.timeOn.inFlight);
      }
    }
    walks.push({ answered, unanswered });
  }
  return { endpoints, walks };
}

/** Which endpoints are in an outage or cooling down at `t`: the planner's only inputs that change during a walk. */
function stateKey(timers: Timers, t: number): string {
  let key = '';
  for (const [id, until] of timers.fault) if (until > t) key += `f${id}|`;
  for (const [id, until] of timers.cool) if (until > t) key += `c${id}|`;
  return key;
}

/**
 * The plans the planner makes over its random draw in one state, each with the end of the stretch
 * of [0, 1) it is made on. Its pick is one endpoint per contiguous stretch of the draw (weighted picks
 * are cumulative), and the rest of the plan follows from the pick: a stretch whose two ends pick the
 * same is one plan.
 */
function plansByDraw(input: WalkInput['plan'], timers: Timers, t: number): { plan: Plan; until: number }[] {
  const now = input.now;
  const candidates: Candidate[] = input.candidates.map((c) => {
    const fault = timers.fault.get(c.endpoint.id);
    const cool = timers.cool.get(c.endpoint.id);
    return {
      ...c,
      recentFaultAt: fault !== undefined && fault > t ? now : null,
      cooldownUntil: cool !== undefined && cool > t ? now + (cool - t) : null,
    };
  });
  const planFor = (draw: number) => planRoute({ ...input, candidates, now, random: () => draw });
  const found: { plan: Plan; until: number }[] = [];
  const first = (plan: Plan) => plan.attempts[0]?.endpoint.id ?? null;
  const split = (from: number, to: number, atFrom: Plan, atTo: Plan): void => {
    if (first(atFrom) === first(atTo) || to - from < DRAW_RESOLUTION) {
      found.push({ plan: atFrom, until: to });
      return;
    }
    const middle = (from + to) / 2;
    split(from, middle, atFrom, planFor(Math.max(from, middle - DRAW_RESOLUTION / 2)));
    split(middle, to, planFor(middle), atTo);
  };
  split(0, 1, planFor(0), planFor(1 - DRAW_RESOLUTION / 2));
  return found;
}

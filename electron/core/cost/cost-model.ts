/**
 * The one cost model: what requests will cost as routing will send them. Each endpoint's cost of a
 * request is counted as the engine builds and the endpoint bills it (request-cost.ts, price.ts);
 * how many of the requests each endpoint answers is walked through the router's own planner with
 * each endpoint's fault and 429 rates (routing-walk.ts). Every figure that shows money before it is
 * spent asks this: an evaluation's or a box run's estimate, ZDR's cost per 1,000 requests, the
 * endpoint views. Nothing else computes a price.
 *
 * cost/ owns prices and expected costs. May import shared/, the catalog, routing (its planner) and
 * decisions (to build a request as the engine does); nothing imports it but the domains that show
 * money and the core's wiring.
 */
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { ProviderPreferences } from '../../../shared/schemas/provider-preferences';
import { percentile } from '../../../shared/metrics/percentile';
import { seededRandom } from '../../../shared/metrics/resample';
import type { Catalog } from '../catalog/catalog';
import type { CatalogEndpoint } from '../catalog/types';
import { requestNeeds } from '../decisions/needs';
import { prepare } from '../decisions/prepare';
import type { Upstreams } from '../decisions/upstreams';
import type { Router } from '../routing/router';
import type { Candidate } from '../routing/plan';
import { priceCall } from './price';
import { endpointCost, imageSizes, type ExpectedCost } from './request-cost';
import { walkRouting, type EndpointOdds } from './routing-walk';

/** How an endpoint fares, and how long it takes to answer (null when neither measured nor scripted). */
export type EndpointFare = EndpointOdds & { latencyMs: number | null };

export interface CostModelDeps {
  catalog: Catalog;
  router: Router;
  upstreams: Upstreams;
  /** Scripted figures of a simulated endpoint (its profile); null for any other, whose figures are measured. */
  scripted: (endpoint: CatalogEndpoint) => EndpointFare | null;
}

/** Below this many attempts in a day an endpoint's measured fault rate is not relied on (as routing's ranking). */
const MEASURED_ATTEMPTS = 20;
/**
 * The likely range: from this quantile of the walked runs' cost to its complement (nineteen runs in
 * twenty fall inside). An analyst budgets against its top: one run in forty above it, not one in
 * twenty; and it is the width of the product's other intervals (accuracy, paired differences).
 */
const RANGE_QUANTILE = 0.025;
/**
 * How far a run's pace may be from the one it is walked at, either way. A model's items took their
 * measured time over other items (larger images take longer), and the machine and the providers are
 * not always as busy: in the estimates bench, box runs went from a quarter to nearly three times the
 * pace their model's newest items gave (text runs further, their items taking a few ms of this
 * machine's own work there). An outage covers more or less of a run with its pace, so the range says so.
 */
const PACE_SPREAD = 3;
/** Walks of 1,000 requests for a per-1,000 figure: a screen asks it for every model at once. */
const PER_THOUSAND_WALKS = 50;

/**
 * How fast a run sends its requests, which decides how much of it an endpoint's 30 s outage covers:
 * how many are in flight, and how long each takes from sending to its answer when measured (a
 * model's items in its newest runs); null when not, and then the endpoints' time to a first token is taken.
 */
export interface Pace {
  concurrency: number;
  /** How long a request of so many tokens (input and output) takes, measured; null when not measured. */
  itemTime: ((tokens: number) => { ms: number; source: string }) | null;
  /**
   * Which providers answered the items `itemTime` was measured on, as shares by provider name: the
   * time on each endpoint is that time scaled by its time to a first token against this mix's.
   */
  mix?: ReadonlyMap<string, number>;
}

/** A pace with a request's time as the walk takes it: on each endpoint (by id) where known. */
type WalkPace = { concurrency: number; msPerRequest: { ms: number; source: string } | null; msOn?: Map<string, number> | null };

/** What a number of requests is expected to cost, with its likely range (2.5th to 97.5th percentile). */
export interface RunCost {
  /** USD; null when a price on the way is unknown */
  usd: number | null;
  low: number | null;
  high: number | null;
  /** each walked run's total, for ranges over several runs added together */
  totals: number[] | null;
  input: number;
  output: number;
  /** How the request rate the walk assumed was read. */
  rate: string;
}

export class CostModel {
  constructor(private readonly deps: CostModelDeps) {}

  /**
   * `count` requests like `sample` (each request's cost on an endpoint averaged over the sample),
   * sent at `pace`: each endpoint's answered share walked through the planner.
   */
  async ofRequests(sample: readonly DecisionsRequest[], count: number, pace: Pace): Promise<RunCost & { perRequest: { input: number; output: number }[] }> {
    const first = sample[0];
    if (!first || count === 0) return { usd: 0, low: 0, high: 0, totals: [0], input: 0, output: 0, rate: 'no requests', perRequest: [] };
    const { catalog, router, upstreams } = this.deps;
    const model = catalog.model(first.model);
    const prepared = prepare(first, model);
    const input = router.planInput(first.model, first.provider ?? undefined, requestNeeds(catalog, first, prepared));
    // Each endpoint's cost of each sampled request, counted once: for the first endpoint of the
    // route (a request's tokens, which its time to answer follows), then for those the walk sends requests to.
    const counted = new Map<string, ExpectedCost[]>();
    const costsOn = async (endpoint: CatalogEndpoint) => {
      let costs = counted.get(endpoint.id);
      if (!costs) {
        costs = [];
        for (const request of sample) {
          const p = prepare(request, model);
          costs.push(await endpointCost(upstreams, endpoint, request, p, imageSizes(p)));
        }
        counted.set(endpoint.id, costs);
      }
      return costs;
    };
    const head = input.candidates[0] ? await costsOn(input.candidates[0].endpoint) : [];
    const tokens = head.reduce((s, c) => s + c.input + c.output, 0) / Math.max(1, head.length);
    const walked = this.walk(input, count, this.walkPace(pace, tokens, input.candidates), PACE_SPREAD);
    const perEndpoint = new Map<string, PerRequest>();
    const perRequest = sample.map(() => ({ input: 0, output: 0 }));
    const answered = walked.walks.reduce((n, w) => n + [...w.answered.values()].reduce((a, b) => a + b, 0), 0);
    for (const id of walked.reached) {
      const share = walked.walks.reduce((n, w) => n + (w.answered.get(id) ?? 0), 0) / Math.max(1, answered);
      const usds: number[] = [];
      let unknown = false;
      let tokensIn = 0;
      let tokensOut = 0;
      for (const [k, one] of (await costsOn(walked.endpoints.get(id)!)).entries()) {
        if (one.usd === null) unknown = true;
        else usds.push(one.usd);
        tokensIn += one.input;
        tokensOut += one.output;
        perRequest[k]!.input += share * one.input;
        perRequest[k]!.output += share * one.output;
      }
      const mean = usds.reduce((a, b) => a + b, 0) / Math.max(1, usds.length);
      const sd = Math.sqrt(usds.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, usds.length - 1));
      perEndpoint.set(id, { usd: unknown ? null : mean, sd: unknown ? 0 : sd, input: tokensIn / sample.length, output: tokensOut / sample.length });
    }
    // Items differ, and the sample's mean is not the dataset's: both widen the range (none when every item was priced).
    return { ...priced(walked, perEndpoint, { sampled: sample.length, of: count }), perRequest };
  }

  /**
   * 1,000 requests of `traffic` tokens each on `model` (one call each, as a gateway client sends),
   * routed as now or with ZDR required; sent at `pace` (the pace the user's requests went at, when
   * measured), else one at a time at the endpoints' time to a first token.
   */
  perThousand(model: string, traffic: { input: number; output: number }, preferences?: ProviderPreferences, pace?: Pace): RunCost {
    const { router } = this.deps;
    const input = router.planInput(model, preferences, { parameters: [], calls: 1, promptTokens: traffic.input, completionTokens: traffic.output, images: 0 });
    const perEndpoint = new Map<string, PerRequest>(
      input.candidates.map((c) => [c.endpoint.id, { usd: priceCall(c.endpoint.prices, traffic), sd: 0, input: traffic.input, output: traffic.output }]),
    );
    const measured = pace?.itemTime ? this.walkPace(pace, traffic.input + traffic.output, input.candidates) : null;
    return priced(this.walk(input, 1000, measured ?? { concurrency: 1, msPerRequest: null }, 1, PER_THOUSAND_WALKS), perEndpoint);
  }

  /** How an endpoint fares: its scripted figures if simulated, else as measured over the last day. */
  fare(candidate: Candidate): EndpointFare {
    const scripted = this.deps.scripted(candidate.endpoint);
    // A simulated endpoint fails as scripted; how long it takes is measured once it has answered (it includes the images' decoding, the stream, this process).
    if (scripted) return { ...scripted, latencyMs: candidate.latency?.p50 ?? scripted.latencyMs };
    const measured = candidate.attempts1d >= MEASURED_ATTEMPTS && candidate.successRate1d !== null;
    return { faultRate: measured ? 1 - candidate.successRate1d! : 0, rateLimitRate: 0, retryAfterMs: 0, latencyMs: candidate.latency?.p50 ?? null };
  }

  /** The walk's pace for requests of `tokens` at `pace`: the measured time, and each endpoint's where its speed is known. */
  private walkPace(pace: Pace, tokens: number, candidates: readonly Candidate[]): WalkPace {
    const msPerRequest = pace.itemTime?.(tokens) ?? null;
    return { concurrency: pace.concurrency, msPerRequest, msOn: msPerRequest && pace.mix ? this.endpointTimes(candidates, msPerRequest.ms, pace.mix) : null };
  }

  /**
   * A request's time on each endpoint: the measured item time, which came from a mix of endpoints,
   * scaled by the endpoint's time to a first token against that mix's (a model's endpoints differ
   * several times over, and the one routing sends a stretch of the run to sets how many requests
   * that stretch holds). Null when the mix's or no endpoint's time to a first token is known.
   */
  private endpointTimes(candidates: readonly Candidate[], ms: number, mix: ReadonlyMap<string, number>): Map<string, number> | null {
    const firstToken = new Map<string, number>();
    for (const c of candidates) {
      const latency = this.fare(c).latencyMs;
      if (latency !== null && latency > 0) firstToken.set(c.endpoint.provider.name, latency);
    }
    let known = 0;
    let mixed = 0;
    for (const [provider, share] of mix) {
      const latency = firstToken.get(provider);
      if (latency === undefined) continue;
      known += share;
      mixed += share * latency;
    }
    // Most of the items' time must come from endpoints whose speed is known, or the scale says little.
    if (known < 0.5) return null;
    const perFirstTokenMs = ms / (mixed / known);
    const times = new Map<string, number>();
    for (const c of candidates) {
      const latency = firstToken.get(c.endpoint.provider.name);
      if (latency !== undefined) times.set(c.endpoint.id, perFirstTokenMs * latency);
    }
    return times;
  }

  /** The walks of `count` requests through the planner, and which endpoints answered any. */
  private walk(input: ReturnType<Router['planInput']>, count: number, pace: WalkPace, spread: number, walks?: number): Walked {
    const fares = new Map(input.candidates.map((c) => [c.endpoint.id, this.fare(c)]));
    const latencies = [...fares.values()].map((f) => f.latencyMs).filter((l): l is number => l !== null);
    const firstToken =
      latencies.length > 0 ? { ms: latencies.reduce((a, b) => a + b, 0) / latencies.length, source: "the endpoints' mean time to a first token" } : null;
    const each = pace.msPerRequest ?? firstToken;
    const { concurrency } = pace;
    // Requests a second: as many as are in flight, each taking as long as measured.
    const perSecond = each === null ? concurrency : (1000 * concurrency) / Math.max(1, each.ms);
    const rate =
      each === null
        ? `${fmtInFlight(concurrency)} request(s) a second: no time to answer is measured`
        : `${fmtRate(perSecond)} requests a second (${fmtInFlight(concurrency)} at a time, ${Math.round(each.ms)} ms each, ${each.source}${pace.msOn ? ', on each endpoint in proportion to its time to a first token' : ''})${spread > 1 ? `, and at ${spread === 3 ? 'a third' : `1/${spread}`} to ${spread} times that pace` : ''}`;
    const walked = walkRouting({
      plan: input,
      odds: (e) => fares.get(e.id)!,
      requests: count,
      perSecond,
      paceSpread: spread,
      ...(pace.msOn ? { timeOn: { ms: pace.msOn, inFlight: concurrency } } : {}),
      ...(walks ? { walks } : {}),
    });
    const reached = new Set<string>();
    for (const w of walked.walks) for (const id of w.answered.keys()) reached.add(id);
    return { ...walked, reached, rate };
  }
}

type Walked = ReturnType<typeof walkRouting> & { reached: Set<string>; rate: string };

/** One endpoint's cost of a request: the mean over the sample, and how much items differ (standard deviation). */
type PerRequest = ExpectedCost & { sd: number };

/**
 * The walks priced: each walked run's total, their mean and the likely range. Each total is the
 * requests each endpoint answered at its mean cost, moved by a seeded normal draw with the spread
 * that items' differing costs and the sample's own error add (when `sampling` says a sample priced a larger run).
 */
function priced(walked: Walked, perEndpoint: ReadonlyMap<string, PerRequest>, sampling?: { sampled: number; of: number }): RunCost {
  const { walks, rate } = walked;
  const normal = normalDraws(0x9e3779b9);
  let unknown = false;
  const totals: number[] = [];
  let sum = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  for (const w of walks) {
    let usd = 0;
    let itemVariance = 0;
    let spread = 0;
    for (const [id, n] of w.answered) {
      const cost = perEndpoint.get(id)!;
      if (cost.usd === null) unknown = true;
      else usd += n * cost.usd;
      itemVariance += n * cost.sd ** 2;
      spread += n * cost.sd;
      tokensIn += n * cost.input;
      tokensOut += n * cost.output;
    }
    sum += usd;
    const sampleVariance = sampling && sampling.sampled < sampling.of ? (spread ** 2 / sampling.sampled) * (1 - sampling.sampled / sampling.of) : 0;
    totals.push(Math.max(0, usd + normal() * Math.sqrt(itemVariance + sampleVariance)));
  }
  const input = tokensIn / walks.length;
  const output = tokensOut / walks.length;
  if (unknown) return { usd: null, low: null, high: null, totals: null, input, output, rate };
  return { usd: sum / walks.length, low: percentile(totals, RANGE_QUANTILE), high: percentile(totals, 1 - RANGE_QUANTILE), totals, input, output, rate };
}

/** Standard normal draws (Box–Muller) from a seeded generator: one input gives one range. */
function normalDraws(seed: number): () => number {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const fmtRate = (r: number) => (r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(2));
/** Requests in flight: whole, or to one decimal when models share the workers. */
const fmtInFlight = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The likely range of several runs' costs added together: their walked totals summed walk by walk. */
export function summedRange(costs: readonly RunCost[]): { low: number | null; high: number | null } {
  if (costs.some((c) => c.totals === null)) return { low: null, high: null };
  const n = Math.min(...costs.map((c) => c.totals!.length));
  const sums = Array.from({ length: n }, (_, i) => costs.reduce((s, c) => s + c.totals![i]!, 0));
  return { low: percentile(sums, RANGE_QUANTILE), high: percentile(sums, 1 - RANGE_QUANTILE) };
}

/**
 * What a run will cost before it starts. Two figures, each named as what it is:
 * - the expected cost, with its likely range: the sampled items' requests asked of the one cost
 *   model (cost/cost-model.ts), which counts them as each endpoint bills them and walks the run's
 *   requests through routing's own planner with each endpoint's fault rate;
 * - the worst case: what a budget holds per request (every endpoint of its route tried, the longest
 *   replies), the highest over the dataset's largest items, times the requests of the run: no run
 *   can cost more. Per model, the worst case of one request too, and the smallest budget that lets
 *   every model send one. Null where a price is unknown.
 *
 * evaluations/estimate/ owns this and the expected cost refined as a run answers (refine.ts). May
 * import shared/, the cost model, decisions (the worst case the engine holds), datasets, and what an
 * item sends for a model (sending/variant-request.ts).
 */
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalVariant } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import type { DecisionsEngine } from '../../decisions/engine';
import type { Datasets } from '../../datasets/datasets';
import { summedRange, type CostModel, type Pace, type RunCost } from '../../cost/cost-model';
import type { EvalResults } from '../results/eval-results';
import { evaluateCondition } from '../../../../shared/cascade/conditions';
import type { Answer } from '../../../../shared/schemas/answer';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { variantRequest } from '../sending/variant-request';
import { fitTokens } from './refine';
import { DEFAULT_CONCURRENCY } from '../../../../shared/contract/eval-operations';
import { modelPace } from './pace';

/** Items whose requests are priced, evenly placed over the dataset; the rest are taken as alike. */
export const SAMPLE = 60;

export interface EstimateDeps {
  datasets: Datasets;
  costs: CostModel;
  evalResults: Pick<EvalResults, 'newestAnswers' | 'recentItemTimes'>;
  decisions: Pick<DecisionsEngine, 'admissionCost'>;
  /** Where requests are answered: a remote gateway reserves nothing here before a request. */
  service(): { mode: 'built-in' | 'remote' };
}

/** Positions of up to SAMPLE items evenly placed over `items`. */
export function samplePositions(items: number): number[] {
  if (items <= SAMPLE) return Array.from({ length: items }, (_, i) => i);
  return Array.from({ length: SAMPLE }, (_, i) => Math.floor(((i + 0.5) * items) / SAMPLE));
}

export async function estimateRun(
  deps: EstimateDeps,
  input: { request: DecisionsRequest; dataset_id: string; variants: EvalVariant[]; concurrency?: number | undefined },
): Promise<EvalEstimate> {
  const items = await deps.datasets.itemCount(input.dataset_id);
  await deps.datasets.assertFits(input.dataset_id, input.request.questions as Record<string, Question>);
  const sample = await Promise.all(samplePositions(items).map((p) => deps.datasets.item(input.dataset_id, p)));
  // Where one request can cost the most: the longest states of the whole dataset.
  const candidates = (await deps.datasets.largest(input.dataset_id)).map((item) => ({ id: item.id, state: item.state }));
  const keys = variantKeys(input.variants);
  const worstItems: { usd: number | null; item: string | null }[] = [];
  const perVariant = [];
  const costs: RunCost[] = [];
  for (const [i, v] of input.variants.entries()) {
    const { cost, note, points } = await variantCost(deps, input, v, sample, items);
    const usd = cost?.usd ?? null;
    const expectedNote = cost && usd === null ? 'a price on its route is unknown' : note;
    if (usd !== null && cost) costs.push(cost);
    const { worst_request_usd, worst_request_note, worst_request_item } = worstRequest(deps, input.request, v, candidates);
    worstItems.push({ usd: worst_request_usd, item: worst_request_item });
    perVariant.push({
      variant: keys[i]!,
      input_tokens: Math.round(cost?.input ?? 0),
      output_tokens: Math.round(cost?.output ?? 0),
      cost_usd: usd,
      cost_note: usd === null || v.cascade ? expectedNote : null,
      cost_low_usd: usd === null ? null : cost!.low,
      cost_high_usd: usd === null ? null : cost!.high,
      cost_rate: cost?.rate ?? 'not walked',
      worst_usd: worst_request_usd === null ? null : worst_request_usd * items,
      worst_request_usd,
      worst_request_note,
      tokens_fit: fitTokens(points),
    });
  }
  const range = costs.length === perVariant.length ? summedRange(costs) : { low: null, high: null };
  const worst = perVariant.map((v) => v.worst_request_usd);
  const sum = (values: (number | null)[]) => (values.some((x) => x === null) ? null : values.reduce<number>((s, x) => s + x!, 0));
  return {
    calls: items * input.variants.length,
    items,
    estimated: true,
    sampled: sample.length,
    per_variant: perVariant,
    input_tokens: perVariant.reduce((s, v) => s + v.input_tokens, 0),
    output_tokens: perVariant.reduce((s, v) => s + v.output_tokens, 0),
    cost_usd: sum(perVariant.map((v) => v.cost_usd)),
    cost_low_usd: range.low,
    cost_high_usd: range.high,
    worst_usd: sum(perVariant.map((v) => v.worst_usd)),
    // The item of the highest worst case over the variants (the one the smallest budget is for).
    worst_request_item:
      worstItems.reduce<{ usd: number | null; item: string | null } | null>((top, w) => (w.usd !== null && (top === null || w.usd > top.usd!) ? w : top), null)
        ?.item ??
      candidates[0]?.id ??
      null,
    // Below the largest worst case, a request of that model is never admitted: the run stops at it.
    min_budget_usd: worst.length === 0 || worst.some((w) => w === null) ? null : roundedUp(Math.max(...(worst as number[]))),
  };
}

/** A variant's expected cost over the run, walked through routing on the sampled items (a cascade's second stage on the share its condition picks); null with why when it cannot be. */
async function variantCost(
  deps: EstimateDeps,
  input: { request: DecisionsRequest; dataset_id: string; variants: EvalVariant[]; concurrency?: number | undefined },
  v: EvalVariant,
  sample: readonly { state: unknown }[],
  items: number,
): Promise<{ cost: RunCost | null; note: string | null; points: { chars: number; tokens: number }[] }> {
  let cost: RunCost | null = null;
  let expectedNote: string | null = null;
  const points: { chars: number; tokens: number }[] = [];
  try {
    const requests = sample.map((item) => variantRequest(input.request, v, item.state));
    const walked = await deps.costs.ofRequests(requests, items, await pace(deps, input, v.model));
    cost = walked;
    // Each sampled item's expected tokens, for the line a run refines its expectation with.
    for (const [k, item] of sample.entries())
      points.push({ chars: JSON.stringify(item.state).length, tokens: walked.perRequest[k]!.input + walked.perRequest[k]!.output });
    // A cascade's second stage is asked for the items its condition picks: as many as it picks among the first model's answers so far.
    if (v.cascade) {
      const share = await escalatedShare(deps, input, v);
      if (share === null) {
        cost = null;
        expectedNote = `how many items go on to ${v.cascade.model} is not known before ${v.model} has answered this dataset's items alone (a run of it gives the share its condition picks)`;
      } else {
        const second = sample.map((item) => variantRequest(input.request, { model: v.cascade!.model }, item.state));
        const then = await deps.costs.ofRequests(second, Math.round(share.share * items), await pace(deps, input, v.cascade.model));
        cost = addCosts(walked, then);
        expectedNote = `${Math.round(100 * share.share)}% of items go on to ${v.cascade.model}: its condition holds on that share of ${v.model}'s newest answers to ${share.of} of this dataset's items`;
      }
    }
  } catch (error) {
    cost = null;
    expectedNote = `its requests would fail: ${(error as Error).message}`;
  }
  return { cost, note: expectedNote, points };
}

/** How fast the run sends `model`'s requests (estimate/pace.ts). */
function pace(deps: EstimateDeps, input: { variants: EvalVariant[]; concurrency?: number | undefined }, model: string): Promise<Pace> {
  return modelPace(deps.evalResults, model, input.concurrency ?? DEFAULT_CONCURRENCY, input.variants.length);
}

/** Answers of the first model before a share is read from them: fewer say too little of the dataset. */
const MIN_ANSWERS_FOR_SHARE = 10;

/** The share of items a cascade's condition sends on, read from the first model's newest answers to this dataset's items; null with too few. */
async function escalatedShare(
  deps: EstimateDeps,
  input: { request: DecisionsRequest; dataset_id: string },
  v: EvalVariant,
): Promise<{ share: number; of: number } | null> {
  const rows = await deps.evalResults.newestAnswers(input.dataset_id, v.model);
  if (rows.length < MIN_ANSWERS_FOR_SHARE) return null;
  const questions = input.request.questions as Record<string, Question>;
  const held = rows.filter((r) => evaluateCondition(v.cascade!.when, questions, r.answers as Record<string, Answer>).holds).length;
  return { share: held / rows.length, of: rows.length };
}

/** Two stages' costs as one: expected costs and tokens added, walks added walk by walk. */
function addCosts(a: RunCost, b: RunCost): RunCost {
  if (a.usd === null || b.usd === null || a.totals === null || b.totals === null) return { ...a, usd: null, low: null, high: null, totals: null };
  const n = Math.min(a.totals.length, b.totals.length);
  const totals = Array.from({ length: n }, (_, i) => a.totals![i]! + b.totals![i]!);
  const range = summedRange([a, b]);
  return { usd: a.usd + b.usd, low: range.low, high: range.high, totals, input: a.input + b.input, output: a.output + b.output, rate: a.rate };
}

/** Three significant digits, rounded up: a budget typed as shown is enough. */
function roundedUp(usd: number): number {
  if (usd <= 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(usd)) - 2);
  return Number((Math.ceil(usd / step) * step).toPrecision(3));
}

/**
 * One request's worst case for a variant, as the engine reserves it at admission: the highest over
 * the candidate items, with the item it is for; null with the reason when it is not known.
 */
function worstRequest(
  deps: EstimateDeps,
  request: DecisionsRequest,
  variant: EvalVariant,
  candidates: { id: string; state: unknown }[],
): { worst_request_usd: number | null; worst_request_note: string | null; worst_request_item: string | null } {
  if (candidates.length === 0) return { worst_request_usd: null, worst_request_note: 'the dataset has no items', worst_request_item: null };
  if (deps.service().mode === 'remote')
    return {
      worst_request_usd: null,
      worst_request_note: 'a remote gateway answers: nothing is held against the budget before a request',
      worst_request_item: null,
    };
  let worst: { usd: number; item: string } | null = null;
  for (const candidate of candidates) {
    let usd: number | null;
    try {
      const asked = variantRequest(request, variant, candidate.state);
      usd = deps.decisions.admissionCost(asked);
      // A cascade holds both stages' worst cases, as the API does.
      if (usd !== null && variant.cascade) {
        const second = deps.decisions.admissionCost({ ...asked, model: variant.cascade.model });
        usd = second === null ? null : usd + second;
      }
    } catch (error) {
      return { worst_request_usd: null, worst_request_note: `its requests would fail: ${(error as Error).message}`, worst_request_item: candidate.id };
    }
    if (usd === null) return { worst_request_usd: null, worst_request_note: 'a price on its route is unknown', worst_request_item: candidate.id };
    if (worst === null || usd > worst.usd) worst = { usd, item: candidate.id };
  }
  return { worst_request_usd: worst!.usd, worst_request_note: null, worst_request_item: worst!.item };
}
